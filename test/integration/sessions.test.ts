import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { agentProcesses, agentText, api, until, useScriptedAgent } from './helpers';

/** Closes a session, writes the transcript store, and stops every agent: the next open starts the agent again. */
async function closeAndStop(sb: SwitchboardTestApi, id: string, scenario: string): Promise<void> {
  sb.closeSession(id);
  await until(() => !sb.sessionIds().includes(id), 'the session closed');
  sb.flushTranscripts();
  await sb.stopAll();
  await until(() => agentProcesses(scenario) === 0, 'the agent process gone');
}

describe('sessions: many at once, history, switching', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
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

  it('two agents that hand out the same session id keep their sessions, chats and transcripts apart', async () => {
    const one = await useScriptedAgent('streaming', {}, 'same-id-streaming');
    const two = await useScriptedAgent('plan', {}, 'same-id-plan');
    const id = await sb.newSession(one, { chat: true });
    assert.equal(await sb.newSession(two, { chat: true }), id, 'both agents call their first session the same');
    const a = sb.keyOf(one, id);
    const b = sb.keyOf(two, id);
    try {
      assert.notEqual(sb.session(a), sb.session(b));
      assert.equal(sb.session(id), sb.session(b), 'a bare id that two sessions share names the newer one');
      const chats = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('switchboard.chat'));
      await until(() => chats().length === 2, 'a chat per session');
      await Promise.all([sb.prompt(a, 'go'), sb.prompt(b, 'go')]);
      assert.match(agentText(sb, a), /streamed/);
      assert.equal(sb.snapshot(a)?.state.plan.length, 0, 'no plan from the other agent');
      assert.ok((sb.snapshot(b)?.state.plan.length ?? 0) > 0, 'the plan agent\'s plan');
      assert.doesNotMatch(agentText(sb, b), /streamed/);
      sb.flushTranscripts();
      const rows = (await sb.history()).filter((r) => r.sessionId === id && (r.agentId === one || r.agentId === two));
      assert.deepEqual(rows.map((r) => r.agentId).sort(), [one, two].sort(), 'two history rows, one per agent');
      sb.closeSession(a);
      await until(() => chats().length === 1, 'one chat closed');
      assert.equal(sb.session(a), undefined);
      assert.ok(sb.session(b), 'the other session stays open');
      assert.equal(sb.session(id), sb.session(b), 'the id names the one left');
    } finally {
      sb.closeSession(a);
      sb.closeSession(b);
    }
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

  it('a chat reopened at once shows its stored transcript before its agent runs, then resumes behind it and sends what was queued', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const id = await sb.openSession(agent, 'h-1'); // started once: the agent is known to resume (reopenPolicy.ts)
    await sb.prompt(id, 'continue');
    const stored = sb.snapshot(id)?.entries.length ?? 0;
    assert.ok(stored >= 2, 'a prompt and its answer');
    await closeAndStop(sb, id, 'historyPaging');
    const again = await sb.openSession(agent, 'h-1', undefined, { atOnce: true });
    const early = sb.snapshot(again);
    assert.equal(early?.state.status, 'starting', 'shown while its agent starts');
    assert.equal(early?.entries.length, stored, 'with the whole stored transcript');
    const session = sb.session(again);
    assert.ok(session);
    await session.submit('queued while it starts');
    await sb.restored();
    assert.equal(sb.isReadOnly(again), false);
    assert.equal(agentProcesses('historyPaging'), 1, 'the agent started behind the chat');
    await until(() => sb.snapshot(again)?.entries.some((e) => e.kind === 'user' && JSON.stringify(e.content).includes('queued while it starts')) === true, 'the queued prompt sent once connected');
    await until(() => sb.snapshot(again)?.state.status === 'idle', 'its turn ended');
    const users = (sb.snapshot(again)?.entries ?? []).filter((e) => e.kind === 'user').length;
    const storedUsers = (early?.entries ?? []).filter((e) => e.kind === 'user').length;
    assert.equal(users, storedUsers + 1, 'nothing of the transcript shown twice, the queued prompt once');
    assert.match(agentText(sb, again), /end-of-h-1/);
  });

  it('a chat reopened at once whose agent no longer knows the session turns read-only, saying why', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const id = await sb.newSession(agent); // only this process knows it: the next one cannot resume it
    await sb.prompt(id, 'remember this');
    await closeAndStop(sb, id, 'historyPaging');
    const again = await sb.openSession(agent, id, undefined, { atOnce: true });
    assert.equal(sb.snapshot(again)?.state.status, 'starting');
    await sb.restored();
    assert.equal(sb.isReadOnly(again), true, 'read-only');
    const snap = sb.snapshot(again);
    assert.equal(snap?.state.status, 'disconnected');
    assert.match(snap?.state.error ?? '', /Read-only: Scripted historyPaging could not reopen it/);
    assert.ok(snap?.entries.some((e) => e.kind === 'user' && JSON.stringify(e.content).includes('remember this')), 'the transcript stays');
    await until(() => agentProcesses('historyPaging') === 0, 'the agent started only for it is stopped again');
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

  it('a chat whose agent is known to neither resume nor load reopens read-only without starting it', async () => {
    const agent = await useScriptedAgent('historyNoLoad');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'remember this');
    await closeAndStop(sb, id, 'historyNoLoad');
    const again = await sb.openSession(agent, id);
    assert.equal(sb.isReadOnly(again), true, 'opens read-only');
    assert.ok(sb.snapshot(again)?.entries.some((e) => e.kind === 'user'), 'with its transcript');
    assert.equal(agentProcesses('historyNoLoad'), 0, 'no agent process was started to find out');
    assert.ok(!sb.runningAgents().includes(agent));
  });

    it('Switch Session (with a session id) focuses the chosen chat; Close Session closes it', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const a = await sb.newSession(agent, { chat: true });
    const b = await sb.newSession(agent, { chat: true });
    await until(() => sb.activeSessionId() === b, 'the second chat active');
    await vscode.commands.executeCommand('switchboard.switchSession', a);
    await until(() => sb.activeSessionId() === a, 'the first chat focused');
    await vscode.commands.executeCommand('switchboard.closeSession');
    await until(() => !sb.sessionIds().includes(a), 'the active session closed');
    assert.ok(sb.sessionIds().includes(b));
  });
});
