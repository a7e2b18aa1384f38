import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { ThreadSnapshot } from '../../src/shared/viewModel';
import { FsHandler } from '../../src/host/files/fsHandler';
import { TerminalManager } from '../../src/host/terminals/terminalHandler';
import { api, until } from './helpers';

const agentText = (s: ThreadSnapshot | undefined) => (s?.entries ?? []).filter((e) => e.kind === 'agent').map((e) => (e.kind === 'agent' ? e.text : '')).join('\n');

describe('sessions with the Demo agent', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  after(async () => { await sb.stopAll(); });

  it('advertises exactly what is implemented in initialize', () => {
    // each handler declares what it serves; nothing else is advertised
    assert.deepEqual(sb.clientCapabilities(), { fs: { ...FsHandler.capabilities }, terminal: TerminalManager.supported, auth: { terminal: true }, session: { configOptions: { boolean: {} }, notices: {}, compaction: {} }, elicitation: { form: {}, url: {} }, plan: {}, subagents: {} });
  });

  it('New Session starts the Demo agent, opens a chat panel and streams the answer', async () => {
    const id = await sb.newSession('demo', { chat: true });
    assert.ok(sb.sessionIds().includes(id));
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    await until(() => tabs().find((t) => t.input instanceof vscode.TabInputWebview && /switchboard\.chat/.test(t.input.viewType)),
      `a chat panel tab (tabs: ${tabs().map((t) => `${t.label} ${t.input instanceof vscode.TabInputWebview ? t.input.viewType : ''}`).join(', ')})`, 5000);
    await sb.prompt(id, 'hello');
    const snap = sb.snapshot(id);
    assert.match(agentText(snap), /Switchboard demo agent/);
    assert.equal(snap?.state.status, 'idle');
    assert.equal(snap?.entries[0]?.kind, 'user');
    assert.ok(snap?.state.title, 'the session got a title from session_info_update');
  });

  it('a permission request waits for the user and the answer reaches the agent', async () => {
    const id = await sb.newSession('demo');
    const turn = sb.prompt(id, '/tour');
    const withPermission = await until(() => {
      const s = sb.snapshot(id);
      return s?.entries.some((e) => e.kind === 'toolCall' && e.permission) ? s : undefined;
    }, 'a permission request');
    assert.equal(withPermission.state.status, 'awaitingPermission');
    assert.ok(sb.respondPermission(id, 'reject_once'), 'answered the request');
    await turn;
    const done = sb.snapshot(id);
    const card = done?.entries.find((e) => e.kind === 'toolCall' && e.permissionOutcome);
    assert.ok(card && card.kind === 'toolCall' && card.permissionOutcome === 'Rejected', 'the card records the answer');
    assert.equal(done?.state.status, 'idle');
  });

  it('cancel answers the pending permission with cancelled and ends the turn', async () => {
    const id = await sb.newSession('demo');
    const turn = sb.prompt(id, '/tour');
    await until(() => sb.snapshot(id)?.entries.some((e) => e.kind === 'toolCall' && e.permission), 'a permission request');
    sb.cancel(id);
    await turn;
    const snap = sb.snapshot(id);
    assert.ok(snap?.entries.some((e) => e.kind === 'notice' && /cancelled/i.test(e.text)), 'a cancelled notice');
    assert.ok(!snap?.entries.some((e) => e.kind === 'toolCall' && (e.status === 'pending' || e.status === 'in_progress' || e.permission)), 'no tool call left running');
  });

  it('two sessions on the one Demo agent process stay apart', async () => {
    const [a, b] = [await sb.newSession('demo'), await sb.newSession('demo')];
    assert.notEqual(a, b);
    await Promise.all([sb.prompt(a, 'hello'), sb.prompt(b, 'help')]);
    assert.equal(sb.snapshot(a)?.entries.filter((e) => e.kind === 'user').length, 1);
    assert.equal(sb.snapshot(b)?.entries.filter((e) => e.kind === 'user').length, 1);
  });

  it('an unknown agent id fails with a clear message', async () => {
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('switchboard.newSession', 'no-such-agent')), /No agent with id 'no-such-agent'/);
  });
});
