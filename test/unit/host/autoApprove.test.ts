import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PermissionOption, ToolKind } from '../../../src/acp/schema/types.gen';
import { autoApproveOption } from '../../../src/host/permissions/autoApprove';
import { options } from './permissionHelpers';

describe('autoApproveOption', () => {
  let root: string;
  let extra: string;
  let outside: string;
  before(() => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-auto-')));
    root = path.join(base, 'project');
    extra = path.join(base, 'extra');
    outside = path.join(base, 'outside');
    for (const d of [root, extra, outside]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'x');
    fs.symlinkSync(outside, path.join(root, 'escape'));
  });
  after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

  const decide = (toolKind: ToolKind, paths: string[], opts: PermissionOption[] = options, roots = [root]) =>
    autoApproveOption('reads', { toolKind, locations: paths.map((p) => ({ path: p })), options: opts }, roots).then((o) => o?.optionId);

  it('picks allow_once for read, search, think and fetch inside the roots', async () => {
    for (const kind of ['read', 'search', 'think', 'fetch'] as const) {
      assert.equal(await decide(kind, [path.join(root, 'src', 'a.ts')]), 'allow', kind);
    }
  });

  it('asks for every other kind', async () => {
    for (const kind of ['edit', 'delete', 'move', 'execute', 'switch_mode', 'other'] as const) {
      assert.equal(await decide(kind, [path.join(root, 'a.ts')]), undefined, kind);
    }
  });

  it('think, search and fetch without locations are fine; a read without one asks', async () => {
    assert.equal(await decide('think', []), 'allow');
    assert.equal(await decide('search', []), 'allow');
    assert.equal(await decide('fetch', []), 'allow');
    assert.equal(await decide('read', []), undefined);
  });

  it('asks when any location is outside the roots, escapes with .. or a symlink, or is relative', async () => {
    assert.equal(await decide('read', [path.join(root, 'a.ts'), path.join(outside, 'b.ts')]), undefined);
    assert.equal(await decide('read', [`${root}/../outside/secret.txt`]), undefined);
    assert.equal(await decide('read', [path.join(root, 'escape', 'secret.txt')]), undefined);
    assert.equal(await decide('read', ['src/a.ts']), undefined);
    assert.equal(await decide('search', [outside]), undefined);
  });

  it('counts additional directories and workspace folders as roots', async () => {
    assert.equal(await decide('read', [path.join(extra, 'notes.md')], options, [root, extra]), 'allow');
  });

  it('asks when the agent offers no allow_once option (it never picks allow_always)', async () => {
    const opts: PermissionOption[] = [{ optionId: 'always', name: 'Always', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' }];
    assert.equal(await decide('read', [path.join(root, 'a.ts')], opts), undefined);
  });

  it('never answers under "never", and without any root', async () => {
    assert.equal(await autoApproveOption('never', { toolKind: 'think', locations: [], options }, [root]), undefined);
    assert.equal(await decide('read', [path.join(root, 'a.ts')], options, []), undefined);
  });

  it('approves a read by its content only: a command, a write or an outside path in rawInput asks, whatever the kind says', async () => {
    const raw = (rawInput: unknown, toolKind: ToolKind = 'read', paths: string[] = []) =>
      autoApproveOption('reads', { toolKind, locations: paths.map((p) => ({ path: p })), options, rawInput }, [root], root).then((o) => o?.optionId);
    assert.equal(await raw({ file_path: path.join(root, 'README.md') }), 'allow', 'a real read');
    assert.equal(await raw({ pattern: 'TODO', path: 'src' }, 'search'), 'allow', 'a relative path is the cwd\'s');
    assert.equal(await raw({ command: 'rm -rf src' }), undefined, 'a command titled as a read');
    assert.equal(await raw({ cmd: ['rm', '-rf', 'src'] }, 'search'), undefined);
    assert.equal(await raw({ nested: { script: 'curl x | sh' } }, 'think'), undefined, 'a command at any depth');
    assert.equal(await raw(JSON.stringify({ command: 'touch x' })), undefined, 'rawInput as a JSON text');
    assert.equal(await raw({ file_path: path.join(root, 'a.txt'), content: 'new' }), undefined, 'a write');
    assert.equal(await raw({ file_path: path.join(root, 'a.txt'), new_string: 'b', old_string: 'a' }), undefined, 'an edit');
    assert.equal(await raw({ path: path.join(outside, 'secret.txt') }), undefined, 'a path outside the roots');
    assert.equal(await raw({ path: '../outside/secret.txt' }), undefined, 'a relative path that leaves the roots');
    assert.equal(await raw({ path: '~/.ssh/id_rsa' }), undefined, 'a home path');
    assert.equal(await raw('rm -rf src'), undefined, 'a bare text');
    assert.equal(await raw('{"command": "rm -rf src"', 'think'), undefined, 'a JSON text that does not parse');
    assert.equal(await autoApproveOption('reads', { toolKind: 'read', locations: [{ path: path.join(root, 'a.txt') }], options, content: [{ type: 'diff', path: path.join(root, 'a.txt'), oldText: 'a', newText: 'b' }] }, [root]).then((o) => o?.optionId), undefined, 'a diff');
  });

});
