/**
 * The approval level of a session (docs/approvals.md, "The approval level"), in the real extension host, against the
 * scripted agent of test/fixtures/agents/scenarios/approvalRules.json (every outcome is echoed back as agent text).
 * Through the UI, by keyboard: test/ui/approvalLevel.ui.mjs.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import type { ToolCallView } from '../../src/shared/viewModel';
import { agentText, askingSuite, setSetting, until, useScriptedAgent } from './helpers';

describe('the approval level of a session', function () {
  this.timeout(60000);
  const suite = askingSuite('approvalRules', []);
  let sb: SwitchboardTestApi;
  let agent: string;
  before(() => { sb = suite.sb(); agent = suite.agent(); });
  afterEach(async () => {
    for (const key of ['permissions.rules', 'permissions.level', 'presets']) await setSetting(key, undefined);
  });
  const cards = (id: string): ToolCallView[] => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'toolCall' ? [e] : []));
  const header = (id: string) => sb.snapshot(id)?.state.approvals?.label;

  it('asking for everything, an allow rule answers nothing, the card offers no rule, and a command no answer covers is asked about', async () => {
    await setSetting('permissions.rules', [{ action: 'allow', command: 'echo *' }]);
    await setSetting('permissions.level', 'ask');
    await setSetting('permissions.uncoveredActions', 'allow'); // the level asks anyway
    try {
      const id = await sb.newSession(agent);
      assert.equal(header(id), 'Ask all');
      const turn = sb.prompt(id, 'rule-allows');
      const card = await until(() => cards(id).find((c) => c.toolCallId === 'tc-rule-echo' && c.permission), 'the card of echo ruled');
      assert.deepEqual(card.permission?.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once'], 'no rule button');
      assert.ok(sb.respondPermission(id, 'allow_once'));
      // `bash -c 'echo again'`: no answer covers it; at `rules` the rule would, and uncoveredActions says allow
      const question = await until(() => cards(id).find((c) => c.toolCallId.startsWith('switchboard-check-') && c.permission), 'the client\'s question');
      assert.match(JSON.stringify(question.rawInput), /echo again/, 'the question shows the command');
      assert.ok(sb.respondPermission(id, 'allow_once'));
      await turn;
      const text = agentText(sb, id);
      assert.match(text, /\[rule-echo\] allow-once/);
      assert.match(text, /\[rule-echo-other\] (exited|done)/);
    } finally {
      await setSetting('permissions.uncoveredActions', 'ask');
    }
  });

  it('a session follows the settings until the user chooses a level; a chosen level holds', async () => {
    await setSetting('permissions.rules', [{ action: 'allow', command: 'echo *' }]);
    const id = await sb.newSession(agent);
    assert.equal(header(id), 'By rules', 'the default');
    await setSetting('permissions.level', 'reads');
    await until(() => header(id) === 'Reads + rules' || undefined, 'the header follows the setting');
    sb.session(id)?.permissions.setLevel('ask');
    await until(() => header(id) === 'Ask all' || undefined, 'the header shows the chosen level');
    await setSetting('permissions.level', 'rules');
    assert.equal(sb.session(id)?.permissions.level, 'ask', 'a chosen level does not follow the settings');
    const turn = sb.prompt(id, 'rule-allows');
    await until(() => cards(id).find((c) => c.toolCallId === 'tc-rule-echo' && c.permission), 'a card: the rule does not answer');
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await until(() => cards(id).find((c) => c.toolCallId.startsWith('switchboard-check-') && c.permission), 'the question about `bash -c`');
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await turn;
    assert.match(agentText(sb, id), /\[rule-echo\] reject-once/);
    sb.session(id)?.permissions.setLevel(undefined);
    await until(() => header(id) === 'By rules' || undefined, 'the settings\' level again');
  });

  it('the level the user chose is kept with the session: closed and opened again, it has it back', async () => {
    for (const open of sb.sessionIds()) sb.closeSession(open);
    const scripted = await useScriptedAgent('crashLoad');
    const id = await sb.newSession(scripted);
    sb.session(id)?.permissions.setLevel('reads');
    sb.closeSession(id);
    await until(() => !sb.sessionIds().includes(id), 'the session closed');
    await sb.openSession(scripted, id);
    const reopened = await until(() => sb.session(id), 'the session opened again');
    assert.equal(reopened.permissions.chosenLevel, 'reads');
    assert.equal(header(id), 'Reads + rules');
  });

  it('a preset sets the level, and Save as Preset keeps the one the user chose', async () => {
    await setSetting('presets', [{ name: 'Careful', agent, approvals: 'ask' }]);
    assert.deepEqual(sb.presets().map((p) => p.approvals), ['ask']);
    const id = await sb.startPreset('Careful');
    assert.equal(sb.session(id)?.permissions.chosenLevel, 'ask');
    assert.equal(header(id), 'Ask all');
    sb.session(id)?.permissions.setLevel('reads');
    await sb.savePreset(id, { name: 'Reader', scope: 'user' });
    const saved = vscode.workspace.getConfiguration('switchboard').inspect<{ name: string; approvals?: string }[]>('presets')?.globalValue ?? [];
    assert.equal(saved.find((p) => p.name === 'Reader')?.approvals, 'reads');
  });
});
