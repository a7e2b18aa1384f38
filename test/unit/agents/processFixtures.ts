/** Helpers shared by the agent-process tests: fixture paths, definitions, bounded waits. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import { isProcessAlive } from '../../../src/agents/processTree';

/** Compiled fixture script (test/fixtures/processes/<name>.ts → out/test/fixtures/processes/<name>.js). */
export function fixtureScript(name: string): string {
  return path.resolve(__dirname, '../../fixtures/processes', `${name}.js`);
}

/** A non-compiled fixture file from the source tree (e.g. the fake shell). */
export function sourceFixture(name: string): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return path.join(dir, 'test/fixtures/processes', name);
}

/** A definition that runs a fixture script with this node. */
export function nodeAgent(script: string, args: readonly string[] = [], env: Record<string, string> = {}, name = 'Test Agent'): AgentDefinition {
  return { id: 'test-agent', name, command: process.execPath, args: [fixtureScript(script), ...args], env };
}

/** Resolves with `promise`, or rejects after `ms` naming what was awaited. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The next complete line of a stream (bounded). */
export function readLine(stream: Readable, ms = 2000): Promise<string> {
  return within(new Promise<string>((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const nl = buffered.indexOf('\n');
      if (nl === -1) return;
      stream.off('data', onData);
      stream.off('end', onEnd);
      // put back what follows the line for the next reader
      stream.pause();
      const rest = buffered.slice(nl + 1);
      if (rest.length > 0) stream.unshift(Buffer.from(rest, 'utf8'));
      resolve(buffered.slice(0, nl));
    };
    const onEnd = () => reject(new Error(`stream ended before a full line: ${JSON.stringify(buffered)}`));
    stream.on('data', onData);
    stream.once('end', onEnd);
  }), ms, 'a line on the stream');
}

/** Waits (bounded, polling) until `pid` is gone. */
export async function waitUntilGone(pid: number, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix = 'switchboard-agents-'): { dir: string; remove: () => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
