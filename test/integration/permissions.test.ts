/**
 * The permission broker in the real extension host, against the scripted agent of
 * test/fixtures/agents/scenarios/permissionRaces.json (every outcome is echoed back as agent text).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { ToolCallView } from '../../src/shared/viewModel';
import { agentText, api, setSetting, until, useScriptedAgent, workspaceRoot } from './helpers';

describe('permissions: the session/request_permission broker', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let agent: string;
  before(async () => {
    sb = await api();
    // the withdraw turn pauses 400 ms before it withdraws its request
    agent = await useScriptedAgent('permissionRaces', { SCRIPTED_AGENT_DELAY_SCALE: '1' });
    fs.writeFileSync(path.join(workspaceRoot(), 'README.md'), '# Sample\n');
  });
  afterEach(async () => { await setSetting('permissions.autoApprove', undefined); });
  after(async () => {
    await sb.stopAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const card = (id: string, toolCallId: string): ToolCallView | undefined => {
    const e = sb.snapshot(id)?.entries.find((x) => x.kind === 'toolCall' && x.toolCallId === toolCallId);
    return e?.kind === 'toolCall' ? e : undefined;
  };
  const pending = (id: string, n = 1) => until(() => (sb.session(id)?.permissions.pending.length ?? 0) >= n && sb.session(id)?.permissions.pending, `${n} pending permission request(s)`);

  it('session/cancel answers every pending request cancelled, and the agent sees it', async () => {
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'two pending');
    await pending(id, 2);
    assert.equal(sb.snapshot(id)?.state.status, 'awaitingPermission');
    sb.cancel(id);
    await turn;
    const text = agentText(sb, id);
    assert.match(text, /\[first\] cancelled/);
    assert.match(text, /\[second\] cancelled/);
    assert.equal(card(id, 'del-1')?.permission, undefined);
    assert.equal(card(id, 'run-1')?.permission, undefined);
    assert.equal(sb.session(id)?.permissions.hasPending, false);
    assert.ok(sb.snapshot(id)?.entries.some((e) => e.kind === 'notice' && /cancelled/i.test(e.text)), 'the turn ended cancelled');
  });

  it('the chosen optionId reaches the agent; a second answer is ignored', async () => {
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'choose');
    const [request] = await pending(id);
    assert.ok(sb.respondPermission(id, 'allow_always'));
    assert.equal(sb.session(id)?.permissions.respond(request.requestId, 'no-id'), false, 'a double answer is ignored');
    await turn;
    assert.match(agentText(sb, id), /\[permission\] always-id/);
    assert.equal(card(id, 'mode-1')?.permissionOutcome, 'Always allowed');
  });

  it('an agent that withdraws its request ($/cancel_request) gets -32800 and the dialog closes', async () => {
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'withdraw');
    const [request] = await pending(id);
    await turn;
    assert.match(agentText(sb, id), /\[withdrawn\] error: -32800/);
    assert.equal(card(id, 'slow-1')?.permission, undefined);
    assert.equal(card(id, 'slow-1')?.permissionOutcome, 'Withdrawn by the agent');
    assert.equal(sb.session(id)?.permissions.respond(request.requestId, 'allow'), false, 'an answer after the withdrawal is ignored');
  });

  it('autoApprove "reads" answers a read inside the roots, visibly; it still asks for an edit and for a read outside', async () => {
    await setSetting('permissions.autoApprove', 'reads');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'auto read');
    assert.match(agentText(sb, id), /\[read\] allow:/);
    assert.match(card(id, 'read-in')?.permissionOutcome ?? '', /^Auto-approved \(reads\)/);

    const edit = sb.prompt(id, 'auto edit');
    await pending(id);
    assert.ok(card(id, 'edit-in')?.permission, 'the edit waits for the user');
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await edit;
    assert.match(agentText(sb, id), /\[edit\] reject:/);

    const outside = sb.prompt(id, 'auto outside');
    await pending(id);
    assert.ok(card(id, 'read-out')?.permission, 'a read outside the roots waits for the user');
    assert.ok(sb.respondPermission(id, 'allow_once'));
    await outside;
    assert.match(agentText(sb, id), /\[outside\] allow:/);
  });

  it('with the chat hidden, a notification offers the options and answering it resolves the request', async () => {
    const id = await sb.newSession(agent, { chat: true });
    const session = sb.session(id);
    assert.ok(session);
    // hide the chat: open a file in its editor group (not as a preview, so it stays)
    const doc = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), 'README.md'));
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Active });
    await until(() => !session.context.isChatVisible(), 'the chat panel to be hidden');
    await vscode.commands.executeCommand('notifications.clearAll');
    const turn = sb.prompt(id, 'edit please');
    const [request] = await pending(id);
    assert.equal(request.notified, true, 'the hidden chat made the broker show a notification');
    // click the notification's first button ("Allow") the way the keyboard shortcut does
    for (const end = Date.now() + 10000; session.permissions.hasPending;) {
      if (Date.now() > end) {
        session.permissions.cancelAll();
        assert.fail('the notification was not answered (notification.acceptPrimaryAction found no Switchboard notification)');
      }
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      await new Promise((r) => setTimeout(r, 200));
    }
    await turn;
    assert.match(agentText(sb, id), /\[permission\] allow:/);
    assert.equal(card(id, 'edit-2')?.permissionOutcome, 'Allowed once');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
