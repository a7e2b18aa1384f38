import * as assert from 'node:assert/strict';
import { ArchiveError, checkArchiveEntries, isSafeSymlink, safeRelativePath } from '../../../src/registry/archivePaths';

const big = 1024 ** 3;

describe('archivePaths', () => {
  it('normalizes safe names and refuses absolute, drive, .. and NUL names', () => {
    assert.equal(safeRelativePath('./bin/agent'), 'bin/agent');
    assert.equal(safeRelativePath('dir/'), 'dir');
    for (const bad of ['/etc/passwd', '\\evil', 'C:/x', 'c:x', '../x', 'a/../../x', 'a/..', 'a\\..\\x', 'a\0b', '', '.']) {
      assert.equal(safeRelativePath(bad), undefined, bad);
    }
  });

  it('accepts symlinks that stay inside and refuses those that leave', () => {
    assert.ok(isSafeSymlink('bin/agent', '../lib/agent'));
    assert.ok(isSafeSymlink('agent', 'bin/agent'));
    assert.ok(!isSafeSymlink('bin/agent', '../../etc/passwd'));
    assert.ok(!isSafeSymlink('agent', '/usr/bin/node'));
    assert.ok(!isSafeSymlink('agent', '.'));
  });

  it('refuses the whole archive on one bad entry', () => {
    const ok = { name: 'agent', kind: 'file' as const, size: 1 };
    assert.doesNotThrow(() => checkArchiveEntries([ok, { name: 'lib/', kind: 'directory', size: 0 }], big));
    assert.throws(() => checkArchiveEntries([ok, { name: '../evil', kind: 'file', size: 1 }], big), (e) => ArchiveError.is(e, 'unsafePath'));
    assert.throws(() => checkArchiveEntries([{ name: 'l', kind: 'symlink', linkTarget: '../../x', size: 0 }], big), (e) => ArchiveError.is(e, 'unsafeLink'));
    assert.throws(() => checkArchiveEntries([{ name: 'h', kind: 'hardlink', linkTarget: '/etc/passwd', size: 0 }], big), (e) => ArchiveError.is(e, 'unsafeLink'));
    assert.throws(() => checkArchiveEntries([{ name: 'dev', kind: 'other', size: 0 }], big), (e) => ArchiveError.is(e, 'unsupportedEntry'));
    assert.throws(() => checkArchiveEntries([{ name: 'a', kind: 'file', size: 10 }, { name: 'b', kind: 'file', size: 10 }], 15), (e) => ArchiveError.is(e, 'tooLarge'));
  });

  it('refuses entries written through a link (d -> . then d/../x)', () => {
    assert.throws(() => checkArchiveEntries([{ name: 'd', kind: 'symlink', linkTarget: 'sub', size: 0 }, { name: 'd/x', kind: 'file', size: 1 }], big), (e) => ArchiveError.is(e, 'unsafeLink'));
  });
});
