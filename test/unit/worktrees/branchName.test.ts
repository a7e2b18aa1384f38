import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { branchFor, repoFolderName, slugOf, validBranch, worktreeFolderName } from '../../../src/worktrees/branchName';

/** What `git check-ref-format --branch` says of a name. */
function gitAccepts(name: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('worktrees: branch and folder names (src/worktrees/branchName.ts)', () => {
  const cases: [string, string][] = [
    ['Fix the login bug', 'switchboard/fix-the-login-bug'],
    ['  Refactor: the   PARSER!!  ', 'switchboard/refactor-the-parser'],
    ['one two three four five six seven eight', 'switchboard/one-two-three-four-five-six'],
    ['Crème brûlée für Zoë', 'switchboard/creme-brulee-fur-zoe'],
    ['Straße ærø Łódź', 'switchboard/strasse-aero-lodz'],
    ['修复登录错误', 'switchboard/session'],
    ['', 'switchboard/session'],
    ['..', 'switchboard/session'],
    ['-rf / --force', 'switchboard/rf-force'],
    ["don't touch config.lock", 'switchboard/dont-touch-config-lock'],
    ['a..b ~^:?*[\\ c', 'switchboard/a-b-c'],
    ['averyveryveryveryveryverylongwordthatkeepsgoingandgoing more', 'switchboard/averyveryveryveryveryverylongwordthatkee'],
    ['implement the new caching layer for remote', 'switchboard/implement-the-new-caching-layer-for'],
  ];
  for (const [text, branch] of cases) {
    it(`branchFor(${JSON.stringify(text)}) = ${branch}`, () => {
      assert.equal(branchFor(text), branch);
      assert.ok(gitAccepts(branch), `git accepts ${branch}`);
    });
  }

  it('keeps a slug to 40 characters and 6 words', () => {
    for (const text of ['words '.repeat(50), 'abcdefghij '.repeat(10), 'x'.repeat(200)]) {
      const s = slugOf(text);
      assert.ok(s.length <= 40 && s.split('-').length <= 6, s);
    }
  });

  it('another prefix, and names git would refuse made valid', () => {
    assert.equal(branchFor('Add tests', ''), 'add-tests');
    assert.equal(branchFor('Add tests', 'agents/claude/'), 'agents/claude/add-tests');
    for (const bad of ['-x', 'a..b', 'x.lock', 'a/.hidden/b', 'a//b', 'a@{1}', 'end.', 'sp ace', '@', '']) {
      const v = validBranch(bad);
      assert.ok(gitAccepts(v) && !v.startsWith('-'), `${JSON.stringify(bad)} → ${v}`);
    }
    assert.equal(validBranch('feature/x.lock'), 'feature/x');
  });

  it('folder names: the branch with / as -, and the repository\'s name with a hash of its path', () => {
    assert.equal(worktreeFolderName('switchboard/fix-it'), 'switchboard-fix-it');
    assert.match(repoFolderName('/home/me/src/my app'), /^my-app-[0-9a-f]{8}$/);
    assert.notEqual(repoFolderName('/a/repo'), repoFolderName('/b/repo'), 'two repositories of one name');
    assert.equal(repoFolderName('/a/repo'), repoFolderName('/a/repo/'));
  });
});
