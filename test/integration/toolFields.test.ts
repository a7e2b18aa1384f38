/**
 * Fields of the current schema against a scripted agent (toolFields.json): a tool call whose output is only in
 * rawOutput, agentInfo, the prompt response's usage, and the W3C traceparent the client puts on its requests while
 * the agent log is at Trace level. The harness checks all of this traffic against the SDK's schema.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { traceparentPattern } from '../../src/acp/traceContext';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, until, useScriptedAgent } from './helpers';

/**
 * A log channel kept for the whole file: a channel follows a change of the log level once VS Code has registered it
 * (which takes a round trip after it is created), so a live one tells when a new level applied.
 */
let probe: vscode.LogOutputChannel | undefined;

/** Sets the log level of every log channel (a command VS Code has for extension tests), and waits until it applies. */
async function setLogLevel(level: 'trace' | 'info'): Promise<void> {
  probe ??= vscode.window.createOutputChannel('Switchboard test probe', { log: true });
  await vscode.commands.executeCommand('_extensionTests.setLogLevel', level);
  const want = level === 'trace' ? vscode.LogLevel.Trace : vscode.LogLevel.Info;
  const channel = probe;
  await until(() => channel.logLevel === want && vscode.env.logLevel === want, `log level ${level} (the probe channel is at ${channel.logLevel}, env.logLevel ${vscode.env.logLevel})`);
}

/** `<method> <traceparent>` pairs of the agent's `{{traceparents}}` echo. */
function echoed(text: string): Array<[string, string]> {
  const line = /traceparents: (.*)/.exec(text)?.[1] ?? '';
  // the Sessions view lists the agent's sessions when sessions change (300 ms after session/new, so between the
  // prompts on a slow machine): the requests the test sends are the others
  return line.split('; ').map((p) => p.split(' ') as [string, string]).filter(([method]) => method !== 'session/list');
}

const traceId = (tp: string) => tp.split('-')[1];
const spanId = (tp: string) => tp.split('-')[2];

describe('tool fields, usage and trace ids against a scripted agent', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); await setLogLevel('info'); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => { await setLogLevel('info'); probe?.dispose(); probe = undefined; await sb.stopAll(); });

  it('shows a tool call whose output is only in rawOutput, the turn\'s usage and the agent\'s info', async () => {
    const agent = await useScriptedAgent('toolFields', {}, 'scripted-fields');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'fields');
    const snap = sb.snapshot(id);
    const card = snap?.entries.find((e) => e.kind === 'toolCall' && e.toolCallId === 'tc-raw');
    assert.ok(card?.kind === 'toolCall');
    assert.equal(card.toolName, 'exec_command');
    const raw = card.rawOutput;
    assert.ok(raw);
    assert.equal(raw.command, "bash -lc 'npm test -- --grep '\\''<img src=x onerror=alert(1)>'\\'''");
    assert.equal(raw.exitCode, 2);
    assert.deepEqual(raw.texts.map((t) => t.label), ['stdout', 'stderr']);
    assert.match(raw.texts[0].text, /\x1b\[32m✓\x1b\[0m 12 passing/);
    assert.deepEqual(raw.diffs.map((d) => [d.path, d.change, d.hunks.length]), [['/project/src/app.ts', 'modified', 2]]);
    assert.deepEqual(Object.keys(JSON.parse(raw.json ?? '{}') as object).sort(), ['call_id', 'cwd', 'duration', 'note', 'parsed_cmd']);
    const plain = snap?.entries.find((e) => e.kind === 'toolCall' && e.toolCallId === 'tc-string');
    assert.ok(plain?.kind === 'toolCall' && plain.rawOutput?.texts[0]?.text === '\x1b[1mbold\x1b[0m plain output\n');
    assert.deepEqual(snap?.state.turnUsage, { total: 12345, input: 10000, output: 2345, thought: 500, cachedRead: 8000, cachedWrite: 120 });
    assert.deepEqual(snap?.state.agentInfo, { name: 'tool-fields-agent', title: 'Fields Agent', version: '2.5.1' });
    assert.equal(snap?.state.agentName, 'Scripted toolFields', 'the name the user gave wins over the title');
    await sb.prompt(id, 'plain');
    assert.equal(sb.snapshot(id)?.state.turnUsage, undefined, 'a turn without usage clears it');
  });

  it('names an agent the user did not name by its title', async () => {
    const agent = await useScriptedAgent('toolFields', {}, 'scripted-fields-unnamed');
    const config = vscode.workspace.getConfiguration('switchboard');
    const agents = (config.get<Record<string, unknown>[]>('agents') ?? []).map((a) => (a.id === agent ? { ...a, name: undefined } : a));
    await config.update('agents', agents, vscode.ConfigurationTarget.Global);
    const id = await sb.newSession(agent);
    assert.equal(sb.snapshot(id)?.state.agentName, 'Fields Agent');
  });

  it('sends no traceparent while the agent log is not at Trace level', async () => {
    const agent = await useScriptedAgent('toolFields', {}, 'scripted-fields-info');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'trace');
    assert.deepEqual(echoed(agentText(sb, id)), [['initialize', 'none'], ['session/new', 'none'], ['session/prompt', 'none']]);
  });

  it('at Trace level, every request carries a valid traceparent: one trace per session, a span per request, named in the log', async () => {
    await setLogLevel('trace');
    try {
      const agent = await useScriptedAgent('toolFields', {}, 'scripted-fields-trace');
      const id = await sb.newSession(agent);
      assert.equal(sb.session(id)?.host.log.logLevel, vscode.LogLevel.Trace);
      await sb.prompt(id, 'fields');
      await sb.prompt(id, 'trace');
      const pairs = echoed(agentText(sb, id));
      assert.deepEqual(pairs.map(([m]) => m), ['initialize', 'session/new', 'session/prompt', 'session/prompt']);
      for (const [method, tp] of pairs) assert.match(tp, traceparentPattern, method);
      const [init, created, p1, p2] = pairs.map(([, tp]) => tp);
      assert.equal(traceId(init), traceId(created), 'requests without a session share the connection trace');
      assert.equal(traceId(p1), traceId(p2), 'the session has one trace');
      assert.notEqual(traceId(p1), traceId(init));
      assert.equal(new Set([init, created, p1, p2].map(spanId)).size, 4, 'a new span per request');
      const logs = () => fs.readdirSync(path.dirname(sb.logDir()), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.log') && f.includes('Scripted toolFields')).map((f) => fs.readFileSync(path.join(path.dirname(sb.logDir()), f), 'utf8')).join('\n');
      await until(() => logs().includes(`[traceparent ${p2}]`), 'the traceparent in the trace log');
    } finally {
      await setLogLevel('info');
    }
  });
});
