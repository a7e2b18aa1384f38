import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancellationToken } from 'vscode-jsonrpc/node';
import { commandForms, GrantLedger, grantSubject, rawInputCommand, toUncoveredPolicy } from '../../../src/host/permissions/grantLedger';
import { PermissionBroker } from '../../../src/host/permissions/permissionBroker';
import { fakeEnvironment, fakeSession, permissionRequest } from './permissionHelpers';

const cmd = (command: string, args: string[] = []) => commandForms(command, args);
const subject = (line: string) => ({ commands: [rawInputCommand({ command: line }) ?? cmd(line)], paths: [], writes: false });

describe('GrantLedger: the user\'s answers bind', () => {
  let root: string;
  before(() => { root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-grants-'))); });
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const file = (name: string) => path.join(root, name);

  it('refuses a write of a file the user rejected in this turn, and forgets it when the next turn starts', async () => {
    const ledger = new GrantLedger();
    ledger.record(await grantSubject({ locations: [{ path: file('a.txt') }], content: [], toolKind: 'edit' }, root), false, 'turn');
    assert.equal(ledger.write([file('a.txt')]).kind, 'refused');
    assert.equal(ledger.write([file('b.txt')]).kind, 'uncovered');
    ledger.startTurn();
    assert.equal(ledger.write([file('a.txt')]).kind, 'uncovered');
  });

  it('a rejection of a read refuses the write too; an allowed read does not allow a write', async () => {
    const ledger = new GrantLedger();
    ledger.record(await grantSubject({ rawInput: { file_path: file('r.txt') }, locations: [], content: [], toolKind: 'read' }, root), true, 'turn');
    assert.equal(ledger.write([file('r.txt')]).kind, 'uncovered', 'allowing a read grants no write');
    ledger.record(await grantSubject({ rawInput: { file_path: 'r.txt' }, locations: [], content: [], toolKind: 'read' }, root), false, 'turn');
    assert.equal(ledger.write([file('r.txt')]).kind, 'refused', 'a relative rawInput path is the cwd\'s');
  });

  it('allows the write of an allowed edit (by diff, rawInput new text or kind), and the newest answer wins', async () => {
    const ledger = new GrantLedger();
    ledger.record(await grantSubject({ locations: [], content: [{ type: 'diff', path: file('d.txt'), oldText: 'a', newText: 'b' }], toolKind: 'other' }, root), true, 'turn');
    ledger.record(await grantSubject({ rawInput: { file_path: file('w.txt'), content: 'x' }, locations: [], content: [], toolKind: 'other' }, root), true, 'turn');
    assert.equal(ledger.write([file('d.txt')]).kind, 'allowed');
    assert.equal(ledger.write([file('w.txt')]).kind, 'allowed');
    ledger.record(await grantSubject({ locations: [{ path: file('d.txt') }], content: [], toolKind: 'edit' }, root), false, 'turn');
    assert.equal(ledger.write([file('d.txt')]).kind, 'refused', 'a later rejection refuses');
  });

  it('an always answer holds for the session; allowing every write of the session covers any path but a refused one', async () => {
    const ledger = new GrantLedger();
    ledger.record(await grantSubject({ locations: [{ path: file('s.txt') }], content: [], toolKind: 'edit' }, root), true, 'session');
    ledger.startTurn();
    assert.equal(ledger.write([file('s.txt')]).kind, 'allowed');
    ledger.record(await grantSubject({ locations: [{ path: file('no.txt') }], content: [], toolKind: 'edit' }, root), false, 'turn');
    ledger.allowForSession('writes');
    assert.equal(ledger.write([file('other.txt')]).kind, 'allowed');
    assert.equal(ledger.write([file('no.txt')]).kind, 'refused');
  });

  it('resolves symlinks: a rejection of a link refuses its target', async () => {
    fs.writeFileSync(file('target.txt'), 'x');
    fs.symlinkSync(file('target.txt'), file('link.txt'));
    const ledger = new GrantLedger();
    ledger.record(await grantSubject({ locations: [{ path: file('link.txt') }], content: [], toolKind: 'edit' }, root), false, 'turn');
    assert.equal(ledger.write([file('target.txt')]).kind, 'refused');
  });

  it('runs the allowed command in any of its spellings (argv, a whole line, sh -c, bash -lc)', () => {
    const ledger = new GrantLedger();
    ledger.record(subject('npm  test -- --grep "a b"'), true, 'turn');
    assert.equal(ledger.command(cmd('npm test -- --grep "a b"')).kind, 'allowed');
    assert.equal(ledger.command(cmd('bash', ['-lc', 'npm test -- --grep "a b"'])).kind, 'allowed');
    assert.equal(ledger.command(cmd('/bin/sh', ['-c', 'npm test -- --grep "a b"'])).kind, 'allowed');
    const argv = new GrantLedger();
    argv.record({ commands: [rawInputCommand({ command: ['git', 'commit', '-m', 'a message'] }) ?? cmd('')], paths: [], writes: false }, true, 'turn');
    assert.equal(argv.command(cmd('git', ['commit', '-m', 'a message'])).kind, 'allowed');
    assert.equal(argv.command(cmd('git', ['commit', '-m', 'other'])).kind, 'differs');
    // as codex-acp asks: an argv through a login shell; run as the script, or through the same shell
    const codex = new GrantLedger();
    codex.record({ commands: [rawInputCommand({ command: ['bash', '-lc', 'npm test'] }) ?? cmd('')], paths: [], writes: false }, true, 'turn');
    assert.equal(codex.command(cmd('bash', ['-lc', 'npm test'])).kind, 'allowed');
    assert.equal(codex.command(cmd('npm', ['test'])).kind, 'allowed');
    assert.equal(codex.command(cmd('bash', ['-lc', 'npm test; rm -rf ~'])).kind, 'differs');
  });

  it('asks about a different command, naming the approved one; refuses a rejected one; asks when none was answered', () => {
    const ledger = new GrantLedger();
    assert.equal(ledger.command(cmd('touch', ['pwned'])).kind, 'uncovered');
    ledger.record(subject('echo hi'), true, 'turn');
    const swap = ledger.command(cmd('touch', ['pwned']));
    assert.deepEqual(swap, { kind: 'differs', approved: ['echo hi'] });
    assert.equal(ledger.command(cmd('echo', ['hi;', 'touch', 'pwned'])).kind, 'differs', 'a chain behind the approved line is another command');
    assert.equal(ledger.command(cmd('sh', ['-c', 'echo hi && touch pwned'])).kind, 'differs');
    ledger.record(subject('rm -rf src'), false, 'turn');
    assert.equal(ledger.command(cmd('bash', ['-c', 'rm -rf src'])).kind, 'refused');
    ledger.startTurn();
    assert.equal(ledger.command(cmd('echo', ['hi'])).kind, 'uncovered', 'an allow-once answer ends with its turn');
  });

  it('reads the setting leniently (anything but allow asks)', () => {
    assert.equal(toUncoveredPolicy('allow'), 'allow');
    assert.equal(toUncoveredPolicy('ask'), 'ask');
    assert.equal(toUncoveredPolicy('everything'), 'ask');
    assert.equal(toUncoveredPolicy(undefined), 'ask');
  });
});

describe('PermissionBroker: answers go into the ledger; the client asks on its own', () => {
  it('records the answer to an agent\'s request by what the call says, not by its title', async () => {
    const { ctx } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const answer = broker.request(permissionRequest('t1', { title: 'Read README.md', kind: 'read', rawInput: { command: 'rm -rf src' } }), CancellationToken.None);
    for (const end = Date.now() + 2000; !broker.hasPending && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
    broker.respond(broker.pending[0].requestId, 'reject');
    await answer;
    assert.equal(broker.grants.command(cmd('rm', ['-rf', 'src'])).kind, 'refused');
  });

  it('shows its own card, with its own options, and answers once, for the session, refused or cancelled', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const ask = (option?: string) => broker.askClient({ sessionId: ctx.sessionId, toolCall: { title: 'Write a.txt', kind: 'edit' }, ...(option ? { session: { option, allows: 'writes' as const } } : {}) }, CancellationToken.None);
    const first = ask('Allow writes in this session');
    for (const end = Date.now() + 2000; !broker.hasPending && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
    const card = thread.entries.find((e) => e.kind === 'toolCall' && e.toolCallId.startsWith('switchboard-check-'));
    assert.ok(card && card.kind === 'toolCall');
    assert.deepEqual(card.permission?.options.map((o) => o.name), ['Allow once', 'Allow writes in this session', 'Refuse']);
    broker.respond(broker.pending[0].requestId, 'session');
    assert.equal(await first, 'session');
    assert.equal(card.status, 'completed');
    const second = ask();
    for (const end = Date.now() + 2000; !broker.hasPending && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
    broker.respond(broker.pending[0].requestId, 'refuse');
    assert.equal(await second, 'refused');
    const third = ask();
    for (const end = Date.now() + 2000; !broker.hasPending && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
    broker.cancelAll();
    assert.equal(await third, 'cancelled');
    assert.equal(broker.grants.write(['/any/file']).kind, 'allowed', 'writes are allowed for the session');
  });

  it('an answer for the whole session answers the questions of the same kind that wait behind it', async () => {
    const { ctx } = fakeSession();
    const broker = new PermissionBroker(ctx, fakeEnvironment());
    const ask = (allows: 'writes' | 'commands') => broker.askClient({ sessionId: ctx.sessionId, toolCall: { title: 'x', kind: 'edit' }, session: { option: `Allow ${allows} in this session`, allows } }, CancellationToken.None);
    const writes = [ask('writes'), ask('writes'), ask('writes')];
    const command = ask('commands');
    for (const end = Date.now() + 2000; broker.pending.length < 4 && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
    broker.respond(broker.pending[1].requestId, 'session');
    assert.deepEqual(await Promise.all(writes), ['once', 'session', 'once']);
    assert.equal(broker.pending.length, 1, 'the command question still waits');
    assert.equal(broker.grants.command(commandForms('ls')).kind, 'uncovered');
    broker.cancelAll();
    assert.equal(await command, 'cancelled');
  });
});
