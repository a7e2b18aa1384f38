import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/api';
import { agentText, api, until, useScriptedAgent } from './helpers';

describe('sessions: many at once, history, switching', function () {
  this.timeout(60000);
  let sb: SwitchboardApi;
  before(async () => { sb = await api(); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => { await sb.stopAll(); });

  it('two sessions on one agent stream at the same time without mixing', async () => {
    const agent = await useScriptedAgent('historyPaging', { SCRIPTED_AGENT_DELAY_SCALE: '1' });
    const a = await sb.newSession(agent);
    const b = await sb.newSession(agent);
    assert.notEqual(a, b);
    assert.equal(sb.session(a)?.host, sb.session(b)?.host, 'one agent process, one connection');
    const both = Promise.all([sb.prompt(a, 'go'), sb.prompt(b, 'go')]);
    await until(() => agentText(sb, a).length > 0 && agentText(sb, b).length > 0 && sb.session(a)?.isWorking && sb.session(b)?.isWorking, 'both sessions streaming at once');
    await both;
    assert.match(agentText(sb, a).trim(), new RegExp(`^Streaming for ${a}:.*end-of-${a}$`));
    assert.match(agentText(sb, b).trim(), new RegExp(`^Streaming for ${b}:.*end-of-${b}$`));
    assert.ok(!agentText(sb, a).includes(b) && !agentText(sb, b).includes(a), 'no text of one session in the other');
  });

  it('two agents run at once', async () => {
    const one = await useScriptedAgent('historyPaging', { SCRIPTED_AGENT_DELAY_SCALE: '1' });
    const two = await useScriptedAgent('historyNoLoad');
    const a = await sb.newSession(one);
    const b = await sb.newSession(two);
    assert.notEqual(sb.session(a)?.host, sb.session(b)?.host, 'two agent processes');
    await Promise.all([sb.prompt(a, 'go'), sb.prompt(b, 'go')]);
    assert.match(agentText(sb, a), /end-of-paged-/);
    assert.match(agentText(sb, b), /only the client remembers/);
  });

  it('history pages through three session/list pages, and a listed session loads with its replay', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const listed = await sb.listSessions(agent);
    assert.deepEqual(listed.map((s) => s.sessionId).filter((id) => id.startsWith('h-')), ['h-1', 'h-2', 'h-3', 'h-4', 'h-5', 'h-6'], 'all three pages of two');
    const rows = await sb.history();
    assert.ok(rows.some((r) => r.sessionId === 'h-6' && r.listed && r.title === 'History six'), 'the last page reaches history');
    const id = await sb.openSession(agent, 'h-1');
    // this agent advertises resume: no replay, the transcript comes from the client's store (none yet)
    assert.equal(sb.isReadOnly(id), false);
    await sb.prompt(id, 'continue');
    assert.match(agentText(sb, id), /end-of-h-1/);
  });

  it('session/load renders the replay, also updates sent after the response (gemini-cli)', async () => {
    const agent = await useScriptedAgent('historyLoadOnly');
    const id = await sb.openSession(agent, 'gemini-style');
    await until(() => sb.snapshot(id)?.entries.some((e) => e.kind === 'agent' && /ACP client/.test(e.text)), 'the late replay');
    await until(() => sb.snapshot(id)?.state.title === 'Late replay (loaded)', 'the late title');
    assert.equal(sb.snapshot(id)?.entries[0]?.kind, 'user');
    await sb.prompt(id, 'next');
    assert.match(agentText(sb, id), /ok from gemini-style/, 'the loaded session takes prompts');
  });

  it('an agent without list or load still has browsable history from the client store, read-only', async () => {
    const agent = await useScriptedAgent('historyNoLoad');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'remember this');
    await until(() => sb.snapshot(id)?.state.title === 'Remembered chat', 'the title');
    sb.closeSession(id);
    await until(() => !sb.sessionIds().includes(id), 'the session closed');
    sb.flushTranscripts();
    const row = (await sb.history()).find((r) => r.sessionId === id);
    assert.ok(row && row.stored && !row.listed && !row.open, `stored in the client's history (${JSON.stringify(row)})`);
    assert.equal(row.title, 'Remembered chat');
    const again = await sb.openSession(agent, id);
    assert.equal(sb.isReadOnly(again), true, 'opens read-only');
    const snap = sb.snapshot(again);
    assert.equal(snap?.state.status, 'disconnected');
    assert.match(snap?.state.error ?? '', /Read-only/);
    assert.ok(snap?.entries.some((e) => e.kind === 'user'), 'the prompt is there');
    assert.ok(snap?.entries.some((e) => e.kind === 'agent' && /only the client remembers/.test(e.text)), 'the answer is there');
  });

  it('Switch Session (with a session id) focuses the chosen chat; Close Session closes it', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const a = await sb.newSession(agent);
    const b = await sb.newSession(agent);
    await until(() => sb.activeSessionId() === b, 'the second chat active');
    await vscode.commands.executeCommand('switchboard.switchSession', a);
    await until(() => sb.activeSessionId() === a, 'the first chat focused');
    await vscode.commands.executeCommand('switchboard.closeSession');
    await until(() => !sb.sessionIds().includes(a), 'the active session closed');
    assert.ok(sb.sessionIds().includes(b));
  });
});
