/** Repositories for the worktree layer's tests: real git in temporary folders, no config of the machine. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeTree } from '../checkpoints/checkpointFixtures';

export { writeTree };

/** A temporary folder (its real path). */
export function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sb-wt-${prefix}-`)));
}


/** Runs git in `cwd` as the test's user; its stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
}

/** A hash of a file's bytes ('missing' when there is none). */
export function fileHash(p: string): string {
  return fs.existsSync(p) ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'missing';
}

/** A repository on `main` with one commit of `files`; its real path. */
export function newRepo(root: string, files: Record<string, string | Buffer> = { 'README.md': '# hello\n' }): string {
  fs.mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test User');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'config', 'commit.gpgSign', 'false');
  writeTree(root, files);
  if (Object.keys(files).length) {
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'initial');
  }
  return fs.realpathSync(root);
}

/** Commits every change of `cwd`; the new sha. */
export function commit(cwd: string, message: string): string {
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', message);
  return git(cwd, 'rev-parse', 'HEAD').trim();
}

/**
 * For a `describe` block: git sees no system or global config of the machine (a `commit.gpgSign` there must
 * not change a test) and a fresh temporary folder per test, removed after it.
 */
export function useRepoFolders(): { readonly dir: string } {
  const f = { dir: '' };
  const saved: Record<string, string | undefined> = {};
  const isolated = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull };
  before(() => {
    for (const [k, v] of Object.entries(isolated)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  beforeEach(() => {
    f.dir = tempDir('t');
  });
  afterEach(() => {
    fs.rmSync(f.dir, { recursive: true, force: true });
  });
  return f;
}
