import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpError, AcpErrorCodes } from '../../../src/acp/errors';
import {
  decideOutsideRoots, isInside, normalizeAgentPath, parseOutsideRootsPolicy, realRoots, resolveRealPath, samePath,
} from '../../../src/host/files/pathPolicy';

/** Asserts that `fn` throws an AcpError with `code` whose message matches `message`. */
function assertAcpError(fn: () => unknown, code: number, message: RegExp): void {
  assert.throws(fn, (e: unknown) => AcpError.is(e) && e.code === code && message.test(e.message));
}

describe('pathPolicy', () => {
  let tmp: string;
  let root: string;
  let outside: string;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-path-')));
    root = path.join(tmp, 'root');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(outside, path.join(root, 'escape'), 'dir');
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'srcLink'), 'dir');
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling.txt'), 'file');
    fs.symlinkSync(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    fs.symlinkSync(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  describe('normalizeAgentPath', () => {
    it('resolves . and .. segments', () => {
      assert.equal(normalizeAgentPath('/a/b/../c/./d'), path.resolve('/a/c/d'));
      assert.equal(normalizeAgentPath('/a/b/../../../x'), path.resolve('/x'));
    });

    it('refuses a relative path with -32602', () => {
      assertAcpError(() => normalizeAgentPath('src/a.ts'), AcpErrorCodes.InvalidParams, /must be absolute.*src\/a\.ts/);
      assertAcpError(() => normalizeAgentPath('./a'), AcpErrorCodes.InvalidParams, /absolute/);
    });

    it('refuses an empty path and a path with a NUL with -32602', () => {
      assertAcpError(() => normalizeAgentPath(''), AcpErrorCodes.InvalidParams, /non-empty/);
      assertAcpError(() => normalizeAgentPath('/etc/passwd\0.txt'), AcpErrorCodes.InvalidParams, /NUL/);
    });
  });

  describe('resolveRealPath', () => {
    it('follows a symlink that escapes the root, so the check sees the real place', async () => {
      const real = await resolveRealPath(path.join(root, 'escape', 'secret.txt'));
      assert.equal(real, path.join(outside, 'secret.txt'));
      assert.equal(isInside(real, [root]), false);
    });

    it('keeps a symlink that stays inside the root inside', async () => {
      const real = await resolveRealPath(path.join(root, 'srcLink', 'a.ts'));
      assert.equal(real, path.join(root, 'src', 'a.ts'));
      assert.equal(isInside(real, [root]), true);
    });

    it('places a not-yet-existing file in a symlinked folder where it will really be created', async () => {
      assert.equal(await resolveRealPath(path.join(root, 'escape', 'new', 'deep', 'file.txt')), path.join(outside, 'new', 'deep', 'file.txt'));
      assert.equal(await resolveRealPath(path.join(root, 'srcLink', 'new.ts')), path.join(root, 'src', 'new.ts'));
      assert.equal(await resolveRealPath(path.join(root, 'brand', 'new.ts')), path.join(root, 'brand', 'new.ts'));
    });

    it('follows a dangling symlink to where a write through it would land', async () => {
      const real = await resolveRealPath(path.join(root, 'dangling.txt'));
      assert.equal(real, path.join(outside, 'not-yet.txt'));
      assert.equal(isInside(real, [root]), false);
    });

    it('gives up on a symlink loop without hanging', async () => {
      const real = await resolveRealPath(path.join(root, 'loop-a', 'x'));
      assert.ok(real.startsWith(root), real);
    });

    it('applies .. before symlinks: the path the agent named is the one checked and used', async () => {
      const p = normalizeAgentPath(path.join(root, 'escape', '..', 'src', 'a.ts'));
      assert.equal(await resolveRealPath(p), path.join(root, 'src', 'a.ts'));
    });
  });

  describe('isInside', () => {
    it('accepts the root itself and paths below it, also files whose names start with ..', () => {
      assert.equal(isInside(root, [root]), true);
      assert.equal(isInside(path.join(root, 'src', 'a.ts'), [root]), true);
      assert.equal(isInside(path.join(root, '..hidden'), [root]), true);
    });

    it('refuses siblings that share a prefix, parents, and other folders', () => {
      assert.equal(isInside(`${root}-other/x`, [root]), false);
      assert.equal(isInside(tmp, [root]), false);
      assert.equal(isInside(path.join(outside, 'secret.txt'), [root]), false);
      assert.equal(isInside(path.join(root, 'x'), []), false);
    });

    it('accepts any of several roots', () => {
      assert.equal(isInside(path.join(outside, 'secret.txt'), [root, outside]), true);
    });

    it('compares case-insensitively only where the file system does', () => {
      const upper = path.join(root.toUpperCase(), 'SRC', 'A.TS');
      assert.equal(isInside(upper, [root], true), true);
      assert.equal(isInside(upper, [root], false), false);
      assert.equal(samePath('/a/B', '/A/b', true), true);
      assert.equal(samePath('/a/B', '/A/b', false), false);
    });
  });

  it('realRoots resolves symlinks, drops duplicates and relative entries', async () => {
    assert.deepEqual(await realRoots([root, path.join(root, 'srcLink'), path.join(root, 'src'), 'relative/dir', `${root}/`]),
      [root, path.join(root, 'src')]);
  });

  describe('the outside-roots policy', () => {
    it('reads the setting, defaulting to ask', () => {
      assert.equal(parseOutsideRootsPolicy('deny'), 'deny');
      assert.equal(parseOutsideRootsPolicy('allowReads'), 'allowReads');
      assert.equal(parseOutsideRootsPolicy('ask'), 'ask');
      assert.equal(parseOutsideRootsPolicy(undefined), 'ask');
      assert.equal(parseOutsideRootsPolicy('nonsense'), 'ask');
    });

    it('asks for reads once per path, always for writes, and denies both with deny', () => {
      assert.equal(decideOutsideRoots('ask', 'read', false), 'ask');
      assert.equal(decideOutsideRoots('ask', 'read', true), 'allow');
      assert.equal(decideOutsideRoots('ask', 'write', true), 'ask');
      assert.equal(decideOutsideRoots('allowReads', 'read', false), 'allow');
      assert.equal(decideOutsideRoots('allowReads', 'write', false), 'ask');
      assert.equal(decideOutsideRoots('deny', 'read', true), 'deny');
      assert.equal(decideOutsideRoots('deny', 'write', false), 'deny');
    });
  });
});
