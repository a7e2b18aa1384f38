/** Folders, hashes and a store for the checkpoint engine's tests (real git, in temporary folders). */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../../src/checkpoints/checkpointStore';
import { SessionCheckpoints } from '../../../src/checkpoints/sessionCheckpoints';

/** A temporary folder, removed by {@link cleanup}. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `sb-cp-${prefix}-`));
}

/** Writes files (relative path → content; null deletes) below `root`. */
export function writeTree(root: string, files: Record<string, string | Buffer | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    if (content === null) fs.rmSync(p, { force: true });
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
  }
}

/**
 * Every file below `root` (the `.git` folder aside) with a hash of its bytes, its x bit and, for a link, its
 * target: two equal maps mean the exact same files.
 */
export function treeHashes(root: string, skip: (rel: string) => boolean = (rel) => rel === '.git' || rel.startsWith('.git/')): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p).split(path.sep).join('/');
      if (skip(rel)) continue;
      if (e.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(p)}`;
      else if (e.isDirectory()) walk(p);
      else {
        const mode = fs.statSync(p).mode & 0o111 ? 'x' : '-';
        out[rel] = `${mode}${createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`;
      }
    }
  };
  walk(root);
  return out;
}

/** Bytes of every file of a user's `.git` that a checkpoint must never touch: HEAD, index, config, refs (stash), hooks (and what git says of HEAD, the stash and the staged files). */
export function gitState(root: string): Record<string, string> {
  const g = path.join(root, '.git');
  const files = ['HEAD', 'index', 'config', 'refs/stash', 'logs/refs/stash', 'ORIG_HEAD', 'info/exclude'];
  const out: Record<string, string> = {};
  for (const f of files) {
    const p = path.join(g, f);
    out[f] = fs.existsSync(p) ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : 'missing';
  }
  out.hooks = fs.existsSync(path.join(g, 'hooks')) ? fs.readdirSync(path.join(g, 'hooks')).sort().join(',') : 'missing';
  out.head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, env: gitEnv() }).toString();
  out.stash = execFileSync('git', ['stash', 'list'], { cwd: root, env: gitEnv() }).toString();
  out.staged = execFileSync('git', ['diff', '--cached', '--name-status'], { cwd: root, env: gitEnv() }).toString();
  return out;
}

/** An environment for the user's own git in tests (no global config of the machine). */
export function gitEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@t' };
}

/** Runs the user's git in `cwd`. */
export function userGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv() }).toString();
}

/** A store in a temporary folder and one session over `roots`. */
export function newStore(dir: string, o: { maxFileBytes?: number; maxStorageBytes?: number } = {}): CheckpointStore {
  return new CheckpointStore({ dir, maxFileBytes: () => o.maxFileBytes ?? 5 * 1024 * 1024, maxStorageBytes: () => o.maxStorageBytes ?? 1024 * 1024 * 1024 });
}

/** A session's checkpoints over fixed roots. */
export function sessionOf(store: CheckpointStore, key: string, roots: readonly string[]): SessionCheckpoints {
  return new SessionCheckpoints(store, key, () => roots);
}

/** For a `describe` block: a fresh work folder (its real path) and store folder per test, removed after it. */
export function useFolders(): { readonly work: string; readonly storeDir: string } {
  const f = { work: '', storeDir: '' };
  beforeEach(() => {
    f.work = fs.realpathSync(tempDir('work'));
    f.storeDir = tempDir('store');
  });
  afterEach(() => {
    fs.rmSync(f.work, { recursive: true, force: true });
    fs.rmSync(f.storeDir, { recursive: true, force: true });
  });
  return f;
}
