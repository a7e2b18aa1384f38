/**
 * Approval rules (docs/approvals.md, "Rules"), in the real extension host, against the scripted agent of
 * test/fixtures/agents/scenarios/approvalRules.json (every outcome is echoed back as agent text). Through the UI,
 * by keyboard: test/ui/approvalRules.ui.mjs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import type { ToolCallView } from '../../src/shared/viewModel';
import { agentText, askingSuite, setSetting, until, workspaceRoot } from './helpers';

describe('approval rules answer requests by what they carry', function () {
  this.timeout(60000);
  const suite = askingSuite('approvalRules', ['chained', 'notes', '.env.ruled']);
  let sb: SwitchboardTestApi;
  let agent: string;
  before(() => { sb = suite.sb(); agent = suite.agent(); });
  const file = (name: string) => path.join(workspaceRoot(), name);
  afterEach(async () => { await setSetting('permissions.rules', undefined); });
  const cards = (id: string): ToolCallView[] => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'toolCall' ? [e] : []));
  const card = (id: string, toolCallId: string) => cards(id).find((c) => c.toolCallId === toolCallId);
  const notices = (id: string) => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'notice' ? [e.text] : [])).join('\n');

  it('an allow rule answers with the agent\'s allow-once option, names itself on the card, and covers the command', async () => {
    await setSetting('permissions.rules', [{ action: 'allow', command: 'echo *' }]);
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'rule-allows');
    const text = agentText(sb, id);
    assert.match(text, /\[rule-echo\] allow-once/, 'allow-once, never the agent\'s allow-always');
    assert.equal(card(id, 'tc-rule-echo')?.permissionOutcome, 'Allowed by the user rule `echo *`');
    assert.match(text, /\[rule-echo-run\] (exited|done)/);
    assert.match(text, /\[rule-echo-other\] (exited|done)/, '`bash -c \'echo again\'` is `echo again`: the rule covers it');
    assert.equal(cards(id).some((c) => c.toolCallId.startsWith('switchboard-check-')), false, 'no question of the client\'s');
  });

  it('a rule that covers one part of a chain does not allow the chain: the card asks', async () => {
    await setSetting('permissions.rules', [{ action: 'allow', command: 'echo *' }]);
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'rule-chain');
    const pending = await until(() => card(id, 'tc-chain')?.permission, 'the card of the chain');
    assert.ok(pending.options.some((o) => o.kind === 'rule'), 'the card offers a rule');
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await turn;
    assert.match(agentText(sb, id), /\[rule-chain\] reject-once/);
    assert.equal(fs.existsSync(file('chained')), false);
  });

  it('a deny rule rejects a "read" whose input is `rm -rf src`, and refuses the command when the agent runs it anyway', async () => {
    fs.mkdirSync(file('src'), { recursive: true });
    await setSetting('permissions.rules', [{ action: 'allow', command: 'rm *' }, { action: 'deny', command: 'rm -rf *' }]);
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'rule-denies');
    const text = agentText(sb, id);
    assert.match(text, /\[rule-rm\] reject-once/, 'deny wins over allow');
    assert.equal(card(id, 'tc-rm')?.permissionOutcome, 'Denied by the user rule `rm -rf *`');
    assert.match(text, /\[rule-rm-run\] error: -32003/);
    assert.ok(fs.existsSync(file('src')), 'src is still there');
    assert.match(notices(id), /refused to run rm -rf src/);
  });

  it('write rules: an allow rule covers a write no answer covers, a deny rule refuses one', async () => {
    await setSetting('permissions.rules', [{ action: 'allow', write: 'notes/**' }, { action: 'deny', write: '**/.env*' }]);
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'rule-writes');
    const text = agentText(sb, id);
    assert.match(text, /\[rule-write-notes\] ok/);
    assert.equal(fs.readFileSync(file('notes/ruled.md'), 'utf8'), 'written under a rule\n');
    assert.match(text, /\[rule-write-env\] error: -32003/);
    assert.equal(fs.existsSync(file('.env.ruled')), false);
    assert.match(notices(id), /the user write rule `\*\*\/\.env\*` denies it/);
    assert.equal(cards(id).some((c) => c.toolCallId.startsWith('switchboard-check-')), false);
  });

  it('entries that are not rules are ignored, and the others still apply', async () => {
    await setSetting('permissions.rules', [{ action: 'allow' }, 'echo *', { action: 'allow', command: 'echo *' }]);
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'rule-allows');
    assert.match(agentText(sb, id), /\[rule-echo\] allow-once/);
  });
});
