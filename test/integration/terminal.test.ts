/**
 * terminal/* in the real extension host: the scripted agent (test/fixtures/agents/scenarios/terminalEditor.json)
 * creates terminals and echoes what it got back as '[name] outcome: {json}'.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isProcessAlive, listProcesses } from '../../src/agents/processTree';
import type { SwitchboardTestApi } from '../../src/api';
import type { TerminalView } from '../../src/shared/viewModel';
import { agentText, api, until, useScriptedAgent } from './helpers';

/** What the scripted agent's terminal step echoes. */
interface TerminalSummary {
  readonly terminalId: string;
  readonly exitStatus: { exitCode?: number | null; signal?: string | null } | null;
  readonly output: string | null;
  readonly truncated: boolean | null;
  readonly errors: string[];
}

function summary(sb: SwitchboardTestApi, sessionId: string, name: string): TerminalSummary {
  const line = agentText(sb, sessionId).split('\n').find((l) => l.startsWith(`[${name}] `));
  assert.ok(line, `the agent echoed [${name}]: ${agentText(sb, sessionId)}`);
  return JSON.parse(line.slice(line.indexOf('{'))) as TerminalSummary;
}

function terminalView(sb: SwitchboardTestApi, sessionId: string, terminalId: string): TerminalView | undefined {
  return sb.snapshot(sessionId)?.terminals?.find((t) => t.terminalId === terminalId);
}

/** The terminal id embedded in a tool call of the session. */
function embeddedTerminal(sb: SwitchboardTestApi, sessionId: string, toolCallId: string): string | undefined {
  const card = sb.snapshot(sessionId)?.entries.find((e) => e.kind === 'toolCall' && e.toolCallId === toolCallId);
  if (card?.kind !== 'toolCall') return undefined;
  const content = card.content.find((c) => c.type === 'terminal');
  return content?.type === 'terminal' ? content.terminalId : undefined;
}

async function groupGone(pgid: number): Promise<boolean> {
  return !(await listProcesses()).some((p) => p.pgid === pgid);
}

describe('terminals (terminal/*)', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let agentId: string;
  before(async () => {
    sb = await api();
    agentId = await useScriptedAgent('terminalEditor');
  });
  after(async () => { await sb.stopAll(); });

  it('shows the command in the terminal panel with its output, streams it to the tool call, and returns its exit code', async () => {
    const id = await sb.newSession(agentId, { chat: true });
    const activeIsChat = () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputWebview && /switchboard\.chat/.test(input.viewType);
    };
    await until(activeIsChat, 'the chat panel is the active tab');
    const turn = sb.prompt(id, 'panel');
    const terminalId = await until(() => embeddedTerminal(sb, id, 't-panel'), 'the terminal embedded in the tool call');
    // live: the output reaches the chat while the command still runs
    const live = await until(() => {
      const v = terminalView(sb, id, terminalId);
      return v && /hello from the agent terminal/.test(v.output) ? v : undefined;
    }, 'live output in the chat');
    assert.equal(live.exitStatus, undefined, 'still running');
    const name = 'Scripted terminalEditor: printf';
    const terminal = await until(() => vscode.window.terminals.find((t) => t.name.startsWith(name)), `a terminal named "${name}…" (have: ${vscode.window.terminals.map((t) => t.name).join(', ')})`);
    assert.ok(activeIsChat(), 'the chat is still the active tab: the terminal took no focus');
    const agentTerminal = sb.session(id)?.terminals.get(terminalId);
    assert.ok(agentTerminal, 'the session knows the terminal');
    assert.equal(agentTerminal.terminal, terminal);
    await until(() => agentTerminal.pty.isOpen, 'VS Code opened the pseudoterminal');
    await turn;

    const result = summary(sb, id, 'panel');
    assert.deepEqual(result.exitStatus, { exitCode: 7, signal: null }, 'the exit code came back to the agent');
    assert.match(result.output ?? '', /hello from the agent terminal\n/);
    assert.match(result.output ?? '', /\x1b\[32mgreen\x1b\[0m line/, 'stderr is in the output, ANSI kept');
    assert.deepEqual(result.errors, []);
    const screen = agentTerminal.pty.screenTail();
    assert.match(screen, /hello from the agent terminal\r\n/, 'the terminal shows the output with \\r\\n line ends');
    assert.match(screen, /exited with code 7/);
    // after release: the output stays in the chat, with the exit status
    const view = terminalView(sb, id, terminalId);
    assert.ok(view?.released, 'released');
    assert.deepEqual(view.exitStatus, { exitCode: 7, signal: null });
    assert.match(view.output, /hello from the agent terminal/);
    assert.equal(embeddedTerminal(sb, id, 't-panel'), terminalId, 'the card still embeds the terminal');
  });

  it('terminal/kill ends a shell that ignores SIGTERM and its child; the id stays valid', async () => {
    const id = await sb.newSession(agentId);
    const started = Date.now();
    await sb.prompt(id, 'kill');
    const result = summary(sb, id, 'kill');
    assert.deepEqual(result.errors, [], 'output and wait_for_exit worked after kill');
    assert.deepEqual(result.exitStatus, { exitCode: null, signal: 'SIGKILL' });
    const m = /shell=(\d+) child=(\d+)/.exec(result.output ?? '');
    assert.ok(m, `pids in the output: ${result.output}`);
    const [shell, child] = [Number(m[1]), Number(m[2])];
    assert.ok(!isProcessAlive(shell), `the shell ${shell} is gone`);
    assert.ok(!isProcessAlive(child), `the background child ${child} is gone`);
    assert.ok(await groupGone(shell), 'nothing is left in the process group');
    assert.ok(Date.now() - started >= 2000, 'SIGKILL came after the 2 s grace time');
  });

  it('outputByteLimit 10 on multi-byte output keeps valid UTF-8 and sets truncated', async () => {
    const id = await sb.newSession(agentId);
    await sb.prompt(id, 'utf8');
    const result = summary(sb, id, 'utf8');
    const full = 'Grüße aus Köln — 日本語のテキスト 🎉';
    const output = result.output ?? '';
    assert.equal(result.truncated, true);
    assert.ok(!output.includes('\uFFFD'), `valid UTF-8: ${JSON.stringify(output)}`);
    assert.ok(full.endsWith(output), 'the tail of the output');
    const bytes = Buffer.byteLength(output);
    assert.ok(bytes <= 10 && bytes >= 7, `${bytes} bytes`);
    assert.deepEqual(result.exitStatus, { exitCode: 0, signal: null });
  });

  it('Ctrl+C typed in the terminal kills the command', async () => {
    const id = await sb.newSession(agentId);
    const turn = sb.prompt(id, 'ctrlc');
    const terminalId = await until(() => embeddedTerminal(sb, id, 't-ctrlc'), 'the terminal');
    await until(() => /waiting for Ctrl\+C/.test(terminalView(sb, id, terminalId)?.output ?? ''), 'the command runs');
    const agentTerminal = sb.session(id)?.terminals.get(terminalId);
    assert.ok(agentTerminal?.terminal);
    await until(() => agentTerminal.pty.isOpen, 'the terminal is open');
    agentTerminal.terminal.sendText('\x03', false);
    await turn;
    const result = summary(sb, id, 'ctrlc');
    assert.equal(result.exitStatus?.exitCode ?? null, null);
    assert.equal(result.exitStatus?.signal, 'SIGTERM');
    assert.match(agentTerminal.pty.screenTail(), /\^C/);
  });

  it('a cancelled turn cancels terminal/wait_for_exit, and the agent can kill and release', async () => {
    const id = await sb.newSession(agentId);
    const turn = sb.prompt(id, 'wait');
    const terminalId = await until(() => embeddedTerminal(sb, id, 't-wait'), 'the terminal');
    const pidText = await until(() => /^\d+/.exec(terminalView(sb, id, terminalId)?.output ?? '')?.[0], 'the shell pid');
    const pid = Number(pidText);
    assert.ok(isProcessAlive(pid));
    sb.cancel(id);
    await turn;
    await until(() => !isProcessAlive(pid), 'the command is gone after cancel', 5000);
    assert.ok(await groupGone(pid), 'its sleep is gone too');
    await until(() => terminalView(sb, id, terminalId)?.released, 'the agent released the terminal');
    const result = summary(sb, id, 'wait');
    assert.ok(result.errors.some((e) => /^waitForExit: -32800/.test(e)), `wait_for_exit answered -32800: ${result.errors.join('; ')}`);
  });

  it('a released id is invalid for every terminal/* method, with a clear error', async () => {
    const released = await useScriptedAgent('terminal');
    const id = await sb.newSession(released);
    await sb.prompt(id, 'released');
    const result = summary(sb, id, 'afterRelease');
    assert.equal(result.errors.length, 2, result.errors.join('; '));
    for (const e of result.errors) assert.match(e, /-32602 Terminal 'term-\d+' was released/);
  });

  it('the Demo agent\'s /tour runs its terminal step, and the output shows in the tool call', async () => {
    const id = await sb.newSession('demo');
    const turn = sb.prompt(id, '/tour');
    await until(() => sb.snapshot(id)?.entries.some((e) => e.kind === 'toolCall' && e.permission), 'the tour\'s permission request');
    assert.ok(sb.respondPermission(id, 'reject_once'), 'answered (rejected: no file is written)');
    await turn;
    const snap = sb.snapshot(id);
    const card = snap?.entries.find((e) => e.kind === 'toolCall' && e.content.some((c) => c.type === 'terminal'));
    assert.ok(card?.kind === 'toolCall', 'a tool call embeds the terminal');
    assert.equal(card.status, 'completed');
    const content = card.content.find((c) => c.type === 'terminal');
    const view = content?.type === 'terminal' ? terminalView(sb, id, content.terminalId) : undefined;
    assert.match(view?.output ?? '', /Hello from a terminal started by the Switchboard demo agent/);
    assert.deepEqual(view?.exitStatus, { exitCode: 0, signal: null });
    assert.equal(view?.released, true);
    // reopened (a window reload resumes the same way), the card still shows what the terminal printed
    sb.flushTranscripts();
    sb.closeSession(id);
    await until(() => !sb.sessionIds().includes(id), 'the session closed');
    const again = await sb.openSession('demo', id);
    const terminalId = content?.type === 'terminal' ? content.terminalId : '';
    assert.match(terminalView(sb, again, terminalId)?.output ?? '', /Hello from a terminal started by the Switchboard demo agent/, 'the output came back from the client store');
  });

  it('closing the session kills its running terminals and closes them', async () => {
    const id = await sb.newSession(agentId);
    const turn = sb.prompt(id, 'wait');
    const terminalId = await until(() => embeddedTerminal(sb, id, 't-wait'), 'the terminal');
    const pid = Number(await until(() => /^\d+/.exec(terminalView(sb, id, terminalId)?.output ?? '')?.[0], 'the shell pid'));
    const session = sb.session(id);
    assert.ok(session);
    const terminal = session.terminals.get(terminalId)?.terminal;
    assert.ok(terminal);
    session.terminals.dispose();
    await until(() => !isProcessAlive(pid), 'the command is gone', 5000);
    await until(() => !vscode.window.terminals.includes(terminal), 'the terminal is closed', 5000);
    sb.cancel(id);
    await turn;
  });
});
