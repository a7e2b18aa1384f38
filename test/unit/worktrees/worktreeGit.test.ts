import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WorktreeGit, WorktreeGitError } from '../../../src/worktrees/worktreeGit';
import { commit, fileHash, git, newRepo, useRepoFolders, writeTree } from './worktreeFixtures';

describe('worktrees: WorktreeGit, the user\'s git for session worktrees (src/worktrees)', function () {
  this.timeout(30_000);
  const folders = useRepoFolders();
  const wg = new WorktreeGit();

  /** A repository with a few files and a worktree of it on `switchboard/task`. */
  async function withWorktree() {
    const top = newRepo(path.join(folders.dir, 'repo'), { 'a.txt': 'one\ntwo\n', 'gone.txt': 'bye\n', 'keep/b.txt': 'b\n', '.gitignore': 'ignored.log\n' });
    const base = git(top, 'rev-parse', 'HEAD').trim();
    const wt = path.join(folders.dir, 'worktrees', 'repo-1234', 'switchboard-task');
    await wg.add({ top, path: wt, branch: 'switchboard/task', base });
    return { top, base, wt };
  }

  it('repoInfo: the real top-level folder, the branch and HEAD; undefined outside a repository', async () => {
    assert.equal(await wg.repoInfo(folders.dir), undefined, 'a folder in no repository');
    assert.equal(await wg.repoInfo(path.join(folders.dir, 'missing')), undefined, 'a folder that does not exist');
    const empty = newRepo(path.join(folders.dir, 'empty'), {});
    assert.deepEqual(await wg.repoInfo(empty), { top: empty, branch: 'main', head: '' }, 'no commit yet');
    const top = newRepo(path.join(folders.dir, 'repo'), { 'sub/x.txt': 'x\n' });
    fs.symlinkSync(top, path.join(folders.dir, 'link'));
    const head = git(top, 'rev-parse', 'HEAD').trim();
    assert.deepEqual(await wg.repoInfo(path.join(folders.dir, 'link', 'sub')), { top, branch: 'main', head }, 'through a link, from a subfolder');
    git(top, 'checkout', '-q', '--detach');
    assert.deepEqual(await wg.repoInfo(top), { top, branch: undefined, head }, 'detached');
  });

  it('add checks the branch out in a new folder (its parent made); changes and diff see committed, uncommitted, untracked and deleted files', async () => {
    const { top, base, wt } = await withWorktree();
    assert.equal(git(wt, 'branch', '--show-current').trim(), 'switchboard/task');
    assert.equal(await wg.headOf(wt), base);
    assert.deepEqual(await wg.changes(wt, base), [], 'a new worktree has no changes');
    assert.equal(await wg.isClean(wt), true);

    writeTree(wt, { 'a.txt': 'one\nTWO\nthree\n' });
    commit(wt, 'agent: committed');
    writeTree(wt, { 'keep/b.txt': 'b\nb2\n', 'new/untracked.md': '# new\nline\n', 'ignored.log': 'noise\n', 'gone.txt': null, 'data.bin': Buffer.from([0, 1, 2, 0, 255]) });
    git(wt, 'add', 'keep/b.txt'); // something the user (or agent) staged
    const indexFile = git(wt, 'rev-parse', '--path-format=absolute', '--git-path', 'index').trim();
    const before = { index: fileHash(indexFile), staged: git(wt, 'diff', '--cached', '--name-status'), main: fileHash(path.join(top, '.git', 'index')) };

    const changes = (await wg.changes(wt, base)).sort((x, y) => x.path.localeCompare(y.path));
    assert.deepEqual(changes, [
      { path: 'a.txt', change: 'modified', added: 2, removed: 1 },
      { path: 'data.bin', change: 'added', added: 0, removed: 0 },
      { path: 'gone.txt', change: 'deleted', added: 0, removed: 1 },
      { path: 'keep/b.txt', change: 'modified', added: 1, removed: 0 },
      { path: 'new/untracked.md', change: 'added', added: 2, removed: 0 },
    ]);
    const { text, truncated } = await wg.diff(wt, base);
    assert.equal(truncated, false);
    assert.match(text, /^diff --git a\/a\.txt b\/a\.txt$/m);
    assert.match(text, /^\+TWO$/m);
    assert.match(text, /^\+\+\+ b\/new\/untracked\.md$/m, 'an untracked file');
    assert.match(text, /^deleted file mode 100644$/m);
    assert.match(text, /^Binary files \/dev\/null and b\/data\.bin differ$/m);
    assert.doesNotMatch(text, /ignored\.log/, 'ignored files stay out');

    assert.deepEqual({ index: fileHash(indexFile), staged: git(wt, 'diff', '--cached', '--name-status'), main: fileHash(path.join(top, '.git', 'index')) }, before, 'the real indexes are untouched');
    assert.equal(git(wt, 'status', '--porcelain').includes('?? new/'), true, 'the untracked file is still untracked');
    assert.deepEqual(fs.readdirSync(path.dirname(indexFile)).filter((f) => f.startsWith('index') && f !== 'index'), [], 'no index left beside it');
  });

  it('diff is cut at a line\'s end when it is longer than maxBytes', async () => {
    const { base, wt } = await withWorktree();
    writeTree(wt, { 'big.txt': Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n') });
    const full = await wg.diff(wt, base);
    const cut = await wg.diff(wt, base, 1000);
    assert.equal(cut.truncated, true);
    assert.ok(cut.text.length <= 1000 && cut.text.endsWith('\n'), `${cut.text.length} bytes`);
    assert.ok(full.text.startsWith(cut.text));
  });

  it('uniqueBranch: the wanted name, else -2, -3…; a branch below or above the name counts as taken', async () => {
    const top = newRepo(path.join(folders.dir, 'repo'));
    assert.equal(await wg.uniqueBranch(top, 'switchboard/fix'), 'switchboard/fix');
    git(top, 'branch', 'switchboard/fix');
    assert.equal(await wg.uniqueBranch(top, 'switchboard/fix'), 'switchboard/fix-2');
    git(top, 'branch', 'switchboard/fix-2');
    assert.equal(await wg.uniqueBranch(top, 'switchboard/fix'), 'switchboard/fix-3');
    git(top, 'branch', 'topic/inner');
    assert.equal(await wg.uniqueBranch(top, 'topic'), 'topic-2', 'topic/inner blocks topic');
    assert.equal(await wg.uniqueBranch(top, 'switchboard/fix/deeper'), 'switchboard/fix-deeper', 'no branch can be below switchboard/fix');
    git(top, 'branch', 'switchboard/fix-deeper');
    assert.equal(await wg.uniqueBranch(top, 'switchboard/fix/deeper'), 'switchboard/fix-deeper-2');
    assert.equal(await wg.branchExists(top, 'switchboard/fix-2'), true);
    assert.equal(await wg.branchExists(top, 'switchboard/fix-9'), false);
  });

  it('commitAll: undefined when nothing changed, else the new commit of every change (untracked files too)', async () => {
    const { wt } = await withWorktree();
    assert.equal(await wg.commitAll(wt, 'nothing'), undefined);
    writeTree(wt, { 'fresh.txt': 'x\n', 'a.txt': 'changed\n' });
    assert.equal(await wg.isClean(wt), false);
    const sha = await wg.commitAll(wt, 'agent work');
    assert.match(sha ?? '', /^[0-9a-f]{40}$/);
    assert.equal(sha, git(wt, 'rev-parse', 'HEAD').trim());
    assert.equal(git(wt, 'log', '-1', '--format=%s%n%an').trim(), 'agent work\nTest User', 'the user\'s identity from their config');
    assert.equal(await wg.isClean(wt), true);
  });

  it('renameBranch, remove (also when the folder is already gone), restore, deleteBranch', async () => {
    const { top, wt } = await withWorktree();
    await wg.renameBranch(wt, 'switchboard/task', 'switchboard/renamed');
    assert.equal(git(wt, 'branch', '--show-current').trim(), 'switchboard/renamed');
    writeTree(wt, { 'work.txt': 'w\n' });
    await wg.commitAll(wt, 'work');

    await wg.remove(top, wt);
    assert.equal(fs.existsSync(wt), false);
    assert.doesNotMatch(git(top, 'worktree', 'list'), /switchboard-task/);
    assert.equal(await wg.branchExists(top, 'switchboard/renamed'), true, 'the branch stays (archive)');

    await wg.restore(top, wt, 'switchboard/renamed');
    assert.equal(fs.readFileSync(path.join(wt, 'work.txt'), 'utf8'), 'w\n', 'unarchived with its work');
    assert.equal(git(wt, 'branch', '--show-current').trim(), 'switchboard/renamed');

    fs.rmSync(wt, { recursive: true, force: true }); // deleted by hand
    await wg.remove(top, wt);
    assert.doesNotMatch(git(top, 'worktree', 'list'), /switchboard-task/, 'pruned');
    await wg.restore(top, wt, 'switchboard/renamed');
    assert.equal(fs.existsSync(path.join(wt, 'work.txt')), true, 'restored where a folder deleted by hand was');
    await wg.remove(top, wt);
    await wg.deleteBranch(top, 'switchboard/renamed');
    assert.equal(await wg.branchExists(top, 'switchboard/renamed'), false);
  });

  it('a failed run is a WorktreeGitError with its args, exit code and git\'s stderr, redacted', async () => {
    const top = newRepo(path.join(folders.dir, 'repo'));
    const secret = 'ghp_S3CRETtoken42';
    const redacting = new WorktreeGit({ redact: (s) => s.split(secret).join('***') });
    const error = await redacting.add({ top, path: path.join(folders.dir, 'wt'), branch: 'b', base: secret }).then(() => undefined, (e: unknown) => e);
    assert.ok(WorktreeGitError.is(error, 'failed'), String(error));
    assert.ok(typeof error.code === 'number' && error.code > 0, `exit code ${error.code}`); // 255 from worktree add, as git exits
    assert.ok(error.args.includes('***') && !error.args.includes(secret), error.args.join(' '));
    assert.match(error.stderr, /^fatal: .*\*\*\*/m, 'git\'s own words');
    assert.ok(!error.stderr.includes(secret) && !error.message.includes(secret), error.message);

    await assert.rejects(wg.add({ top, path: path.join(folders.dir, 'wt'), branch: '--force', base: 'HEAD' }), (e) => WorktreeGitError.is(e, 'badName'));
    await assert.rejects(new WorktreeGit({ gitPath: path.join(folders.dir, 'no-such-git') }).headOf(top), (e) => WorktreeGitError.is(e, 'noGit'));
    const slow = path.join(folders.dir, 'slow-git');
    fs.writeFileSync(slow, '#!/bin/sh\nsleep 5\n', { mode: 0o755 });
    await assert.rejects(new WorktreeGit({ gitPath: slow, timeoutMs: 200 }).headOf(top), (e) => WorktreeGitError.is(e, 'timedOut'));
  });

  it('drops inherited GIT_DIR / GIT_INDEX_FILE: a run is about the folder it is given', async () => {
    const top = newRepo(path.join(folders.dir, 'repo'));
    const other = newRepo(path.join(folders.dir, 'other'), { 'o.txt': 'o\n' });
    const saved = { dir: process.env.GIT_DIR, index: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = path.join(other, '.git');
    process.env.GIT_INDEX_FILE = path.join(other, '.git', 'index');
    try {
      assert.equal((await wg.repoInfo(top))?.top, top);
      assert.equal(await wg.headOf(top), git(top, '--git-dir', path.join(top, '.git'), 'rev-parse', 'HEAD').trim());
    } finally {
      for (const [k, v] of [['GIT_DIR', saved.dir], ['GIT_INDEX_FILE', saved.index]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
