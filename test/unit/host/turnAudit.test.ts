import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { actsBeyondItsKind } from '../../../src/host/permissions/autoApprove';
import { GrantLedger } from '../../../src/host/permissions/grantLedger';
import { flagsNotice, isOwnWrite, noteOwnWrite, TurnAudit } from '../../../src/host/permissions/turnAudit';
import type { ChangedFile } from '../../../src/host/permissions/turnAudit';

const root = path.resolve('/work/project');
const changed = (rel: string, change: ChangedFile['change'] = 'modified'): ChangedFile => ({ path: path.join(root, rel), rel, change });
const never = () => Promise.resolve(false);

describe('TurnAudit: what happened against what was granted', () => {
  it('flags a file written without a request, after a rejection, or behind a read; not one allowed or written by the client', async () => {
    const grants = new GrantLedger();
    grants.record({ commands: [], paths: [path.join(root, 'read.md')], writes: false }, true, 'turn');
    grants.record({ commands: [], paths: [path.join(root, 'rejected.txt')], writes: true }, false, 'turn');
    grants.record({ commands: [], paths: [path.join(root, 'allowed.txt')], writes: true }, true, 'turn');
    const audit = new TurnAudit();
    audit.startTurn();
    audit.clientWrote([path.join(root, 'client.txt')]);
    const flags = await audit.endTurn([changed('read.md'), changed('rejected.txt'), changed('allowed.txt'), changed('client.txt'), changed('new.txt', 'created'), changed('gone.txt', 'deleted')], 'cp-1', grants, never);
    assert.deepEqual(flags.map((f) => `${f.kind} ${f.text}`), [
      'behindRead read.md was changed behind a request you allowed only to read it',
      'afterReject rejected.txt was changed after you rejected a request that names it',
      'unrequested new.txt was created without a request (by the agent\'s own process, or another program)',
      'unrequested gone.txt was deleted without a request (by the agent\'s own process, or another program)',
    ]);
    assert.equal(audit.open.length, 4);
    assert.equal(audit.openFrom, 'cp-1');
    audit.resolve();
    assert.equal(audit.open.length, 0);
  });

  it('a write rule covers a file; a command that ran covers what changed in the turn, never a rejected file', async () => {
    const grants = new GrantLedger();
    grants.record({ commands: [], paths: [path.join(root, 'rejected.txt')], writes: true }, false, 'turn');
    const byRule = new TurnAudit();
    assert.deepEqual(await byRule.endTurn([changed('src/a.ts')], 'cp', grants, (p) => Promise.resolve(p.endsWith('a.ts'))), []);
    const audit = new TurnAudit();
    audit.commandRan();
    const flags = await audit.endTurn([changed('coverage/lcov.info', 'created'), changed('rejected.txt')], 'cp', grants, never);
    assert.deepEqual(flags.map((f) => f.kind), ['afterReject']);
  });

  it('flags a request declared a read that carries a command or a write', async () => {
    const audit = new TurnAudit();
    audit.mismatch('Read README.md', 'a command', 'read');
    audit.mismatch(`Read ${'x'.repeat(200)}`, 'a write', 'search');
    const flags = await audit.endTurn([], undefined, new GrantLedger(), never);
    assert.deepEqual(flags.map((f) => f.kind), ['mismatch', 'mismatch']);
    assert.equal(audit.open.length, 0, 'no file to revert');
    assert.match(flagsNotice('Agent', flags), /^Switchboard flagged 2 effects of this turn of Agent that no answer or rule of yours covers: "Read README\.md" was declared a read but carries a command; "Read x+…" was declared a search but carries a write\.$/);
    audit.startTurn();
    assert.deepEqual(await audit.endTurn([], undefined, new GrantLedger(), never), [], 'a new turn starts clean');
  });

  it('reads what a request declared a read really carries', () => {
    assert.equal(actsBeyondItsKind('read', { command: 'rm -rf src' }, []), 'a command');
    assert.equal(actsBeyondItsKind('search', { path: 'a', content: 'x' }, []), 'a write');
    assert.equal(actsBeyondItsKind('read', '{"cmd":"ls"}', []), 'a command');
    assert.equal(actsBeyondItsKind('read', { path: 'a' }, [{ type: 'diff', path: 'a', oldText: 'x', newText: 'y' }]), 'a write');
    assert.equal(actsBeyondItsKind('read', { path: 'README.md' }, []), undefined);
    assert.equal(actsBeyondItsKind('execute', { command: 'ls' }, []), undefined, 'an execute that runs a command says what it is');
  });
  it('knows a file Switchboard wrote itself only while it holds those bytes: a later change is not its own', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-own-')));
    try {
      const settings = path.join(dir, 'settings.json');
      fs.writeFileSync(settings, '{"switchboard.permissions.rules": [{"action": "allow", "command": "npm test"}]}');
      assert.equal(await isOwnWrite(settings), false, 'not noted yet');
      noteOwnWrite(settings, fs.readFileSync(settings));
      assert.equal(await isOwnWrite(settings), true, 'the rule Switchboard saved');
      fs.writeFileSync(settings, '{"switchboard.permissions.rules": [{"action": "allow", "command": "*"}]}');
      assert.equal(await isOwnWrite(settings), false, 'the agent\'s own edit of the settings');
      fs.rmSync(settings);
      assert.equal(await isOwnWrite(settings), false, 'deleted');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
