/**
 * The user's answers bind (docs/approvals.md), in the real extension host, against the hostile scripted agent of
 * test/fixtures/agents/scenarios/approvalsBind.json (every outcome is echoed back as agent text). Through the UI:
 * test/ui/approvalsBind.ui.mjs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import type { ToolCallView } from '../../src/shared/viewModel';
import { agentText, askingSuite, setSetting, until, workspaceRoot } from './helpers';

describe('approvals: the user\'s answers bind the agent\'s writes and commands', function () {
  this.timeout(60000);
  const suite = askingSuite('approvalsBind', ['a.txt', 'b.txt', 'pwned']);
  let sb: SwitchboardTestApi;
  let agent: string;
  before(() => { sb = suite.sb(); agent = suite.agent(); });
  const file = (name: string) => path.join(workspaceRoot(), name);
  afterEach(async () => { await setSetting('permissions.autoApprove', undefined); });
  const cards = (id: string): ToolCallView[] => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'toolCall' ? [e] : []));
  const clientCard = (id: string) => until(() => cards(id).find((c) => c.toolCallId.startsWith('switchboard-check-') && c.permission), 'a card of the client\'s own');
  const pendingCard = (id: string, toolCallId: string) => until(() => cards(id).find((c) => c.toolCallId === toolCallId && c.permission), `the request of ${toolCallId}`);
  const notices = (id: string) => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'notice' ? [e.text] : [])).join('\n');

  it('refuses a write of a file the user rejected (-32003), leaves the file alone and says so', async () => {
    fs.writeFileSync(file('a.txt'), 'original\n');
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'write-after-reject');
    await pendingCard(id, 'tc-edit-a');
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await turn;
    assert.match(agentText(sb, id), /\[write-after-reject\] error: -32003/);
    assert.equal(fs.readFileSync(file('a.txt'), 'utf8'), 'original\n');
    assert.match(notices(id), /refused .*write to a\.txt: you rejected a request that names this file/);
  });

  it('asks before a different command than the one allowed, showing both lines; refused, it does not run', async () => {
    fs.rmSync(file('pwned'), { force: true });
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'command-swap');
    await pendingCard(id, 'tc-swap');
    assert.ok(sb.respondPermission(id, 'allow_once'));
    const card = await clientCard(id);
    const shown = JSON.stringify(card);
    assert.match(shown, /echo hi/, 'the approved line');
    assert.match(shown, /touch pwned/, 'the new line');
    assert.deepEqual(card.permission?.options.map((o) => o.name), ['Allow once', 'Refuse']);
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await turn;
    assert.match(agentText(sb, id), /\[swap\] error/);
    assert.equal(fs.existsSync(file('pwned')), false);
  });

  it('asks before the allowed line with an environment that changes what it runs (BASH_ENV)', async () => {
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'env-swap');
    await pendingCard(id, 'tc-env');
    assert.ok(sb.respondPermission(id, 'allow_once'));
    const card = await clientCard(id);
    assert.match(JSON.stringify(card), /BASH_ENV=.*evil\.sh/);
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await turn;
    assert.match(agentText(sb, id), /\[env-run\] error/);
  });

  it('runs the command the user allowed without asking again', async () => {
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'approved-command');
    await pendingCard(id, 'tc-approved');
    assert.ok(sb.respondPermission(id, 'allow_once'));
    await turn;
    assert.match(agentText(sb, id), /\[approved-run\] (exited|done)/);
    assert.equal(cards(id).some((c) => c.toolCallId.startsWith('switchboard-check-')), false);
  });

  it('asks before a write that no answer covers, with its diff; allowed once, it is written', async () => {
    fs.rmSync(file('b.txt'), { force: true });
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'uncovered-write');
    const card = await clientCard(id);
    assert.deepEqual(card.permission?.options.map((o) => o.name), ['Allow once', 'Allow writes in this session', 'Refuse']);
    assert.match(JSON.stringify(card), /b\.txt/);
    assert.ok(sb.respondPermission(id, 'allow_once'));
    await turn;
    assert.match(agentText(sb, id), /\[uncovered-write\] ok/);
    assert.equal(fs.readFileSync(file('b.txt'), 'utf8'), 'written once the user allowed it\n');
  });

  it('autoApprove "reads" asks for a "read" whose input is a command, and still approves a real read', async () => {
    await setSetting('permissions.autoApprove', 'reads');
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'reads-by-content');
    await pendingCard(id, 'tc-fake-read');
    assert.ok(sb.respondPermission(id, 'reject_once'));
    await turn;
    const text = agentText(sb, id);
    assert.match(text, /\[fake-read\] reject-once/);
    assert.match(text, /\[real-read\] allow-once/);
    assert.match(cards(id).find((c) => c.toolCallId === 'tc-real-read')?.permissionOutcome ?? '', /^Auto-approved \(reads\)/);
  });
});
