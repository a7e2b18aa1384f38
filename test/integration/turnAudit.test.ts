/**
 * The turn audit (docs/approvals.md, "The audit") in the real extension host, against the hostile scripted agent of
 * test/fixtures/agents/scenarios/turnAudit.json: each effect that no answer or rule covers is flagged in the chat
 * (a warning with Revert), and Revert gives the exact bytes back from the checkpoint before the turn.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import { CheckpointActions } from '../../src/host/files/checkpointActions';
import type { NoticeView } from '../../src/shared/viewModel';
import { acceptingPreview, askingSuite, setSetting, until, workspaceRoot } from './helpers';

describe('turn audit: what happened against what was granted', function () {
  this.timeout(90_000);
  const suite = askingSuite('turnAudit', ['audit']);
  let sb: SwitchboardTestApi;
  let agent: string;
  before(() => { sb = suite.sb(); agent = suite.agent(); });
  const file = (name: string) => path.join(workspaceRoot(), 'audit', name);
  beforeEach(() => {
    fs.rmSync(path.join(workspaceRoot(), 'audit'), { recursive: true, force: true });
    fs.mkdirSync(path.join(workspaceRoot(), 'audit'), { recursive: true });
  });
  const flagNotice = (id: string): NoticeView | undefined => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'notice' && e.text.startsWith('Switchboard flagged') ? [e] : [])).at(-1);
  const run = async (caseName: string, answer?: 'allow_once' | 'reject_once'): Promise<string> => {
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, caseName);
    if (answer) {
      await until(() => sb.snapshot(id)?.entries.some((e) => e.kind === 'toolCall' && e.permission), 'the request');
      assert.ok(sb.respondPermission(id, answer));
    }
    await turn;
    return id;
  };
  const revert = async (id: string) => {
    const session = sb.session(id);
    assert.ok(session);
    await acceptingPreview(() => new CheckpointActions(session.context, session.checkpoints, () => session.isWorking).revertFlagged(session.permissions.audit));
  };

  it('flags a file the agent wrote itself behind a request allowed only to read it; Revert restores the exact bytes', async () => {
    const before = Buffer.from('notes \u00e9\r\n\u0000binary tail', 'utf8');
    fs.writeFileSync(file('notes.md'), before);
    const id = await run('behind-read', 'allow_once');
    const notice = await until(() => flagNotice(id), 'the flag');
    assert.match(notice.text, /audit\/notes\.md was changed behind a request you allowed only to read it/);
    assert.equal(notice.action, 'revert');
    assert.equal(sb.session(id)?.permissions.audit.open.length, 1);
    await revert(id);
    assert.deepEqual(fs.readFileSync(file('notes.md')), before, 'the exact bytes are back');
    assert.equal(sb.session(id)?.permissions.audit.open.length, 0);
    assert.equal(flagNotice(id)?.action, undefined, 'the warning stays, without its Revert button');
  });

  it('flags a file written without any request, and Revert deletes the file it created', async () => {
    const id = await run('no-request');
    assert.match((await until(() => flagNotice(id), 'the flag')).text, /audit\/sneaky\.txt was created without a request \(by the agent's own process, or another program\)/);
    await revert(id);
    assert.equal(fs.existsSync(file('sneaky.txt')), false);
  });

  it('flags a file written after the user rejected its edit', async () => {
    fs.writeFileSync(file('keep.txt'), 'mine\n');
    const id = await run('after-reject', 'reject_once');
    assert.match((await until(() => flagNotice(id), 'the flag')).text, /audit\/keep\.txt was changed after you rejected a request that names it/);
    await revert(id);
    assert.equal(fs.readFileSync(file('keep.txt'), 'utf8'), 'mine\n');
  });

  it('flags a request declared a read that carries a command (no Revert: no file changed)', async () => {
    const id = await run('mismatch', 'reject_once');
    const notice = await until(() => flagNotice(id), 'the flag');
    assert.match(notice.text, /"Read README\.md" was declared a read but carries a command/);
    assert.equal(notice.action, undefined);
  });

  it('does not flag what the user allowed', async () => {
    const id = await run('allowed-edit', 'allow_once');
    assert.equal(fs.readFileSync(file('ok.txt'), 'utf8'), 'allowed\n');
    assert.equal(flagNotice(id), undefined);
  });

  it('a command the user\'s setting lets run is not flagged (the setting is the user\'s answer)', async () => {
    await setSetting('permissions.uncoveredActions', 'allow');
    try {
      const id = await run('uncovered-command');
      assert.equal(flagNotice(id), undefined);
    } finally {
      await setSetting('permissions.uncoveredActions', 'ask');
    }
  });
});
