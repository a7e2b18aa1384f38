/**
 * The ACP remote transport against stdio (issue "Agents that run elsewhere"; docs/remote-agents.md): one turn of
 * 10,000 `session/update` messages (agent_message_chunk of about 100 bytes) from the scripted agent, read by
 * this client's AcpConnection, over
 *   stdio      the agent as a child process (NDJSON over its pipes: the baseline)
 *   websocket  the same agent behind the official SDK's server (test/fixtures/agents/acpServer.ts), ws on loopback
 *   http       the same, Streamable HTTP (POST + SSE) on loopback
 * from the prompt sent to its answer (every update handled first). Rounds alternate; each transport's best
 * round counts. Target: WebSocket ≤ 2× the stdio time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpConnection } from '../../src/acp/connection';
import { MemoryAcpCookieStore, StreamChannel } from '../../src/agents/streamChannel';

const root = path.resolve(__dirname, '../../..');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
type Kind = 'stdio' | 'websocket' | 'http';

function scenarioFile(updates: number): string {
  const words = Array.from({ length: updates * 15 }, (_, i) => ['stream', 'the', '**answer**', 'with', '`code`', 'and', 'prose'][i % 7]).join(' ');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-transport-bench-')), 'flood.json');
  fs.writeFileSync(file, JSON.stringify({ name: 'flood', turns: [{ steps: [{ step: 'text', text: words, chunks: updates }] }] }));
  return file;
}

async function connect(kind: Kind, scenario: string): Promise<{ connection: AcpConnection; stop: () => void }> {
  const agent = [path.join(root, 'out/test/fixtures/agents/scriptedAgent.js'), scenario];
  const env = { ...process.env, SCRIPTED_AGENT_DELAY_SCALE: '0' };
  if (kind === 'stdio') {
    const child = spawn(process.execPath, agent, { stdio: ['pipe', 'pipe', 'ignore'], env });
    return { connection: AcpConnection.overStreams(child.stdout, child.stdin, { logger: silent }), stop: () => child.kill('SIGKILL') };
  }
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'out/test/fixtures/agents/acpServer.js'), '--', process.execPath, ...agent], { stdio: ['ignore', 'pipe', 'ignore'], env });
  const port = await new Promise<string>((resolve) => server.stdout?.on('data', (d: Buffer) => { const m = /listening (\d+)/.exec(d.toString()); if (m) resolve(m[1]); }));
  const channel = await StreamChannel.open({ agentName: 'bench', type: kind, url: `${kind === 'websocket' ? 'ws' : 'http'}://127.0.0.1:${port}/acp`, headers: {}, cookieStore: new MemoryAcpCookieStore() });
  return { connection: AcpConnection.overMessages(channel.readable, channel.writable, { logger: silent }), stop: () => { void channel.stop(); server.kill('SIGTERM'); } };
}

/** One turn's time (ms) over `kind`, from the prompt to its answer, with every update handled. */
async function turnMs(kind: Kind, scenario: string, updates: number): Promise<number> {
  const { connection, stop } = await connect(kind, scenario);
  try {
    let seen = 0;
    connection.onNotification('session/update', () => { seen++; });
    connection.listen();
    await connection.initialize({ clientCapabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    const { sessionId } = await connection.request('session/new', { cwd: root, mcpServers: [] });
    const t0 = performance.now();
    await connection.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] });
    const ms = performance.now() - t0;
    if (seen !== updates) throw new Error(`${kind}: ${seen} of ${updates} updates arrived`);
    return ms;
  } finally {
    connection.close(new Error('done'));
    stop();
  }
}

/** Runs the benchmark; `ok` is false when the WebSocket target is missed. */
export async function runTransportBenchmark(updates = 10_000, rounds = 3): Promise<{ lines: string[]; ok: boolean }> {
  const scenario = scenarioFile(updates);
  const best: Record<Kind, number> = { stdio: Infinity, websocket: Infinity, http: Infinity };
  for (let r = 0; r < rounds; r++) for (const kind of ['stdio', 'websocket', 'http'] as const) best[kind] = Math.min(best[kind], await turnMs(kind, scenario, updates));
  fs.rmSync(path.dirname(scenario), { recursive: true, force: true });
  const ws = best.websocket / best.stdio;
  const lines = [
    `Benchmark: one turn of ${updates.toLocaleString('en-US')} session/update messages, the scripted agent over each transport (best of ${rounds})`,
    ...(['stdio', 'websocket', 'http'] as const).map((k) => `  ${k.padEnd(10)} ${best[k].toFixed(0).padStart(6)} ms  (${(best[k] / best.stdio).toFixed(2)}x stdio)`),
    `  WebSocket / stdio = ${ws.toFixed(2)}x  (target <= 2.0x) ${ws <= 2 ? 'met' : 'MISSED'}`,
  ];
  return { lines, ok: ws <= 2 };
}

if (require.main === module) {
  void runTransportBenchmark(Number(process.env.BENCH_UPDATES ?? 10_000)).then((r) => { for (const l of r.lines) console.log(l); process.exit(r.ok ? 0 : 1); });
}
