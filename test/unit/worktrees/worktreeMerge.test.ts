import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorktreeGit, WorktreeGitError } from '../../../src/worktrees/worktreeGit';
import { commit, git, newRepo, useRepoFolders, writeTree } from './worktreeFixtures';

describe('worktrees: merging a session\'s branch back (src/worktrees)', function () {
  this.timeout(30_000);
  const folders = useRepoFolders();
  const wg = new WorktreeGit();

  /** A repository on main and a worktree on `switchboard/task`, both from the same base. */
  async function setup() {
    const top = newRepo(path.join(folders.dir, 'repo'), { 'a.txt': 'base\n', 'other.txt': 'o\n' });
    const base = git(top, 'rev-parse', 'HEAD').trim();
    const wt = path.join(folders.dir, 'wts', 'task');
    await wg.add({ top, path: wt, branch: 'switchboard/task', base });
    return { top, base, wt };
  }

  /** Both sides change a.txt and add both.txt differently. */
  async function conflicting() {
    const s = await setup();
    writeTree(s.top, { 'a.txt': 'ours\n', 'both.txt': 'ours both\n' });
    commit(s.top, 'user work');
    writeTree(s.wt, { 'a.txt': 'theirs\n', 'both.txt': 'theirs both\n', 'clean.txt': 'from the agent\n' });
    await wg.commitAll(s.wt, 'agent work');
    return s;
  }

  const parents = (cwd: string) => git(cwd, 'log', '-1', '--format=%P').trim().split(' ').length;

  it('a clean merge makes a merge commit (--no-ff) on the base branch', async () => {
    const { top, wt } = await setup();
    writeTree(wt, { 'feature.txt': 'new\n' });
    const tip = await wg.commitAll(wt, 'agent work');
    const r = await wg.merge(top, 'switchboard/task', 'Merge the agent\'s work');
    assert.ok(r.ok);
    assert.equal(r.sha, git(top, 'rev-parse', 'HEAD').trim());
    assert.equal(parents(top), 2, 'a merge commit even though a fast-forward was possible');
    assert.equal(git(top, 'log', '-1', '--format=%s').trim(), 'Merge the agent\'s work');
    assert.equal(git(top, 'rev-parse', 'HEAD^2').trim(), tip);
    assert.equal(fs.readFileSync(path.join(top, 'feature.txt'), 'utf8'), 'new\n');
    assert.equal(await wg.mergeInProgress(top), false);
  });

  it('a conflict is listed and left in progress; the stages are readable; completeMerge refuses while markers remain, then commits', async () => {
    const { top } = await conflicting();
    const r = await wg.merge(top, 'switchboard/task', 'Merge');
    assert.deepEqual(r, { ok: false, conflicts: ['a.txt', 'both.txt'] });
    assert.equal(await wg.mergeInProgress(top), true);
    assert.deepEqual(await wg.conflicts(top), ['a.txt', 'both.txt']);

    assert.equal(await wg.stage(top, 'a.txt', 1), 'base\n');
    assert.equal(await wg.stage(top, 'a.txt', 2), 'ours\n');
    assert.equal(await wg.stage(top, 'a.txt', 3), 'theirs\n');
    assert.equal(await wg.stage(top, 'both.txt', 1), '', 'added on both sides: no base');
    assert.equal(await wg.stage(top, 'both.txt', 3), 'theirs both\n');
    assert.equal(await wg.stage(top, 'clean.txt', 2), '', 'not conflicted');
    assert.equal(await wg.fileAt(top, 'HEAD', 'a.txt'), 'ours\n');
    assert.equal(await wg.fileAt(top, 'switchboard/task', 'clean.txt'), 'from the agent\n');
    assert.equal(await wg.fileAt(top, 'HEAD', 'clean.txt'), '', 'not in that commit');

    writeTree(top, { 'a.txt': 'resolved\n' }); // both.txt still has its markers
    await assert.rejects(wg.completeMerge(top, ['a.txt', 'both.txt']), (e) => WorktreeGitError.is(e, 'conflictMarkers') && /both\.txt/.test(e.message));
    assert.equal(await wg.mergeInProgress(top), true, 'nothing was committed');

    writeTree(top, { 'both.txt': 'ours both\ntheirs both\n' });
    const sha = await wg.completeMerge(top, ['a.txt', 'both.txt']);
    assert.equal(sha, git(top, 'rev-parse', 'HEAD').trim());
    assert.equal(parents(top), 2);
    assert.equal(git(top, 'log', '-1', '--format=%s').trim(), 'Merge', 'the merge\'s own message');
    assert.equal(await wg.mergeInProgress(top), false);
    assert.deepEqual(await wg.conflicts(top), []);
    assert.equal(git(top, 'show', 'HEAD:clean.txt'), 'from the agent\n');
    assert.equal(await wg.isClean(top), true);
  });

  it('a file resolved by deleting it completes the merge', async () => {
    const { top } = await conflicting();
    await wg.merge(top, 'switchboard/task', 'Merge');
    writeTree(top, { 'a.txt': 'resolved\n', 'both.txt': null });
    await wg.completeMerge(top, ['a.txt', 'both.txt']);
    assert.equal(git(top, 'ls-files', 'both.txt'), '');
    assert.equal(await wg.mergeInProgress(top), false);
  });

  it('abortMerge puts the base branch back as it was', async () => {
    const { top } = await conflicting();
    const head = git(top, 'rev-parse', 'HEAD').trim();
    await wg.merge(top, 'switchboard/task', 'Merge');
    await wg.abortMerge(top);
    assert.equal(await wg.mergeInProgress(top), false);
    assert.deepEqual(await wg.conflicts(top), []);
    assert.equal(git(top, 'rev-parse', 'HEAD').trim(), head);
    assert.equal(fs.readFileSync(path.join(top, 'a.txt'), 'utf8'), 'ours\n');
    assert.equal(await wg.isClean(top), true);
  });

  it('a merge git refuses (local changes would be overwritten) throws, and starts nothing', async () => {
    const { top, wt } = await setup();
    writeTree(wt, { 'a.txt': 'theirs\n' });
    await wg.commitAll(wt, 'agent work');
    writeTree(top, { 'a.txt': 'the user is editing\n' });
    await assert.rejects(wg.merge(top, 'switchboard/task', 'Merge'), (e) => WorktreeGitError.is(e, 'failed') && /overwritten/.test(e.stderr));
    assert.equal(await wg.mergeInProgress(top), false);
    assert.equal(fs.readFileSync(path.join(top, 'a.txt'), 'utf8'), 'the user is editing\n');
  });
});
