/**
 * The composer's host side in the real extension host, against test/fixtures/agents/scenarios/composer.json
 * (its default turn echoes the prompt's text and blocks): attachments become prompt blocks restricted to the
 * agent's promptCapabilities, config options and their response state, the queue sent after the turn, and
 * the setup response's config options reaching the thread.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, until, useScriptedAgent, workspaceRoot } from './helpers';

describe('composer: prompts, attachments, config options and the queue', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let agent: string;
  let file: vscode.Uri;
  before(async () => {
    sb = await api();
    agent = await useScriptedAgent('composer', { SCRIPTED_AGENT_DELAY_SCALE: '0.2' });
    const p = path.join(workspaceRoot(), 'src', 'composerTarget.ts');
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, 'export const x = 1;\n');
    file = vscode.Uri.file(p);
  });
  after(async () => {
    await sb.stopAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const session = (id: string) => {
    const s = sb.session(id);
    assert.ok(s);
    return s;
  };

  it('the session/new response’s config options reach the thread (select groups, boolean advertised)', async () => {
    const id = await sb.newSession(agent);
    const options = await until(() => sb.snapshot(id)?.state.configOptions, 'config options');
    assert.deepEqual(options.map((o) => o.id), ['model', 'mode', 'effort', 'web'], 'the boolean option is sent because the client advertises it');
    const model = options[0];
    assert.ok(model.type === 'select');
    assert.deepEqual(model.groups.map((g) => g.name), ['Fast', 'Smart']);
    assert.equal(sb.snapshot(id)?.state.modes, undefined, 'no legacy modes');
  });

  it('an @-mentioned file reaches the agent as a resource_link (embeddedContext off)', async () => {
    const id = await sb.newSession(agent);
    await session(id).submit('look at this', [{ kind: 'file', id: 'f1', uri: file.toString(), name: 'composerTarget.ts' }]);
    await until(() => /blocks:/.test(agentText(sb, id)), 'the echo');
    assert.match(agentText(sb, id), new RegExp(`blocks: text; resource_link ${file.toString().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const user = sb.snapshot(id)?.entries.find((e) => e.kind === 'user');
    assert.ok(user?.kind === 'user' && user.content.some((c) => c.type === 'resource' && c.name === 'composerTarget.ts'), 'the user message shows the file');
  });

  it('a selection is sent as a text block with its path and lines when embeddedContext is off', async () => {
    const id = await sb.newSession(agent);
    await session(id).submit('explain', [{ kind: 'selection', id: 's1', uri: file.toString(), name: 'composerTarget.ts', startLine: 1, endLine: 1, text: 'export const x = 1;' }]);
    await until(() => /blocks:/.test(agentText(sb, id)), 'the echo');
    assert.match(agentText(sb, id), /received: explain\nsrc\/composerTarget\.ts \(line 1\):\n```\nexport const x = 1;\n```/);
  });

  it('a config-option change reaches the agent and the response state replaces the local one', async () => {
    const id = await sb.newSession(agent);
    await session(id).setConfigOption('model', 'smart-1');
    await session(id).setConfigOption('web', true);
    const model = sb.snapshot(id)?.state.configOptions?.find((o) => o.id === 'model');
    assert.equal(model?.currentValue, 'smart-1');
    assert.equal(sb.snapshot(id)?.state.configOptions?.find((o) => o.id === 'web')?.currentValue, true);
    await sb.prompt(id, 'config');
    assert.match(agentText(sb, id), /model=smart-1 mode=ask effort=medium web=true/);
    await assert.rejects(session(id).setConfigOption('model', 'nope'), 'an invalid value is refused by the agent');
    assert.equal(sb.snapshot(id)?.state.configOptions?.find((o) => o.id === 'model')?.currentValue, 'smart-1', 'the state is unchanged');
  });

  it('a message written during a turn is queued, can be edited, and is sent when the turn ends', async () => {
    const id = await sb.newSession(agent);
    const s = session(id);
    const turn = s.submit('slow please');
    await until(() => s.isWorking, 'the turn to start');
    await s.submit('first queued');
    await s.submit('second queued');
    assert.deepEqual(s.queue.items.map((q) => q.text), ['first queued', 'second queued']);
    s.queue.update(s.queue.items[0].id, 'edited queued');
    s.queue.remove(s.queue.items[1].id);
    await turn;
    await until(() => /received: edited queued/.test(agentText(sb, id)), 'the queued prompt to be sent');
    assert.equal(s.queue.size, 0);
    assert.ok(!/second queued/.test(agentText(sb, id)), 'the removed prompt was not sent');
  });

  it('content the agent does not accept is not sent (promptCapabilities are a MUST)', async () => {
    const id = await sb.newSession(agent);
    await session(id).prompt([{ type: 'text', text: 'hello' }, { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }]);
    assert.match(agentText(sb, id), /blocks: text$/m);
    assert.ok(sb.snapshot(id)?.entries.some((e) => e.kind === 'notice' && /does not accept it: audio/.test(e.text)));
  });
});
