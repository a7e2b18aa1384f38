/**
 * Elicitation in the real extension host, against the scripted agent of
 * test/fixtures/agents/scenarios/elicitation.json (every outcome is echoed back as agent text).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { ElicitationView } from '../../src/shared/elicitationModel';
import { agentText, api, until, useScriptedAgent } from './helpers';

describe('elicitation: elicitation/create and elicitation/complete', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let agent: string;
  before(async () => {
    sb = await api();
    agent = await useScriptedAgent('elicitation');
  });
  after(async () => {
    await sb.stopAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const elicitations = (id: string): ElicitationView[] => (sb.snapshot(id)?.entries ?? []).flatMap((e) =>
    e.kind === 'elicitation' ? [e.elicitation] : e.kind === 'toolCall' ? [...(e.elicitations ?? [])] : []);

  it('advertises elicitation form and url in initialize', async () => {
    assert.deepEqual((sb.clientCapabilities() as { elicitation?: unknown }).elicitation, { form: {}, url: {} });
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'capabilities');
    assert.match(agentText(sb, id), /client elicitation: form\+url/);
  });

  it('answers an unknown and a custom (_) mode -32602, with a notice in the chat', async () => {
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'unknown mode');
    const text = agentText(sb, id);
    assert.match(text, /\[wizard\] error: -32602 .*'wizard'/);
    assert.match(text, /\[custom\] error: -32602 .*'_acme_dialog'/);
    const notices = (sb.snapshot(id)?.entries ?? []).filter((e) => e.kind === 'notice' && /does not support/.test(e.text));
    assert.equal(notices.length, 2);
    assert.equal(elicitations(id).length, 0, 'nothing rendered as a form or URL');
  });

  it('refuses a URL that is not http(s), never opening it', async () => {
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'bad url');
    assert.match(agentText(sb, id), /\[elicit\] error: -32602 .*http or https/);
  });

  it('accepts a validated form (the content reaches the agent), and Stop cancels a pending one', async () => {
    const id = await sb.newSession(agent);
    let turn = sb.prompt(id, 'form');
    const [request] = await until(() => (sb.session(id)?.elicitations.pending.length ?? 0) > 0 && sb.session(id)?.elicitations.pending, 'a pending form');
    const session = sb.session(id);
    assert.ok(session);
    assert.equal(session.elicitations.respond(request.requestId, 'accept', { name: 'x', email: 'me@example.com', langs: ['ts'] }), false, 'refused: name too short');
    assert.match(elicitations(id)[0].errors?.name ?? '', /at least 3/);
    assert.ok(session.elicitations.respond(request.requestId, 'accept', { name: 'my-app', email: 'me@example.com', langs: ['ts', 'rs'], seats: '4' }));
    await turn;
    assert.match(agentText(sb, id), /\[elicit\] accept: \{"name":"my-app","email":"me@example.com","seats":4,"langs":\["ts","rs"\]\}/);

    turn = sb.prompt(id, 'form');
    await until(() => session.elicitations.pending.length === 1, 'the second form');
    sb.cancel(id);
    await turn;
    assert.equal(session.elicitations.pending.length, 0);
    assert.equal(elicitations(id).at(-1)?.outcome, 'Cancelled');
  });
});
