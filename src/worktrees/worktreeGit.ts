/**
 * Git worktrees for agent sessions: a session may run in its own `git worktree`, on its own branch, in a
 * folder Switchboard manages outside the workspace. Unlike the shadow repositories of src/checkpoints/gitCli.ts,
 * these runs are in the USER's repository: the user's config and hooks apply as in a terminal; only what would
 * wait for a person (a credential prompt, an editor) or point git at another repository (inherited `GIT_DIR`
 * and friends) is taken away. `execFile`, never a shell; a failed run is a {@link WorktreeGitError}, whose
 * stderr went through the `redact` the owner gave (secrets masked). Pure: no vscode (docs/architecture.md, "Layers").
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { typedError } from '../shared/typedError';

/** Why a run failed: git said no, took too long, was not found; conflict markers left; a name git would read as an option. */
export type WorktreeGitErrorReason = 'failed' | 'timedOut' | 'noGit' | 'conflictMarkers' | 'badName';

/** A git run that failed: its arguments, exit code and stderr as git wrote it (all redacted). */
export class WorktreeGitError extends typedError('WorktreeGitError') {
  constructor(
    readonly reason: WorktreeGitErrorReason,
    readonly args: readonly string[],
    readonly code: number | string,
    readonly stderr: string,
    message?: string,
  ) {
    super(message ?? `git ${args.slice(0, 3).join(' ')} failed (${code}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`);
  }
}

/** A repository as seen from a folder in it. */
export interface RepoInfo {
  /** Its top-level folder (`--show-toplevel`, real path). */
  readonly top: string;
  /** The checked-out branch; undefined when HEAD is detached. */
  readonly branch: string | undefined;
  /** HEAD's full sha; '' in a repository without a commit. */
  readonly head: string;
}

/** One file that differs between a worktree and its base commit. */
export interface FileChange {
  /** Relative to the worktree, '/' separators. */
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
  /** Lines added and removed (0 and 0 for a binary file). */
  readonly added: number;
  readonly removed: number;
}

/** The outcome of a merge: its commit, or the conflicted paths with the merge left in progress. */
export type MergeResult = { readonly ok: true; readonly sha: string } | { readonly ok: false; readonly conflicts: string[] };

interface RunOptions {
  readonly cwd: string;
  readonly okCodes?: readonly number[];
  readonly env?: Readonly<Record<string, string>>;
  /** Stop reading stdout after this many bytes (the run is then killed and `truncated`). */
  readonly maxStdout?: number;
}

interface RunResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly code: number;
  readonly truncated: boolean;
}

/**
 * Inherited variables that would point git at another repository, index or object store, change how
 * pathspecs are read, leak a parent git's `-c` options, or trace to stderr. The user's identity
 * (`GIT_AUTHOR_*`), ssh and config files (`GIT_CONFIG_GLOBAL`, `GIT_SSH_COMMAND`) are theirs and kept.
 */
const inherited = /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|PREFIX|IMPLICIT_WORK_TREE|SUPER_PREFIX|(LITERAL|GLOB|NOGLOB|ICASE)_PATHSPECS|QUARANTINE_PATH|INTERNAL_\w*|CONFIG_PARAMETERS|REFLOG_ACTION|TRACE\w*|EDITOR|SEQUENCE_EDITOR|MERGE_AUTOEDIT|TERMINAL_PROMPT)$/i;

/** The environment for a run in the user's repository (also for the user's check command: checkRun.ts). */
export function userGitEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !inherited.test(k)) out[k] = v;
  return { ...out, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_MERGE_AUTOEDIT: 'no' };
}

/** Paths we pass are file names, never patterns. */
const literal = { GIT_LITERAL_PATHSPECS: '1' };

/** Splits git's `-z` output into its fields (the trailing empty one dropped). */
function nulFields(out: Buffer): string[] {
  const parts = out.toString('utf8').split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** A conflict marker at the start of a line (`<<<<<<< ours`, `>>>>>>> theirs`). */
const markerLine = /^(<<<<<<<|>>>>>>>)( |$)/m;

/** Runs the system `git` for worktrees of the user's repositories. */
export class WorktreeGit {
  private readonly gitPath: string;
  private readonly timeoutMs: number;
  private readonly redact: (s: string) => string;

  constructor(opts: { gitPath?: string; timeoutMs?: number; redact?: (s: string) => string } = {}) {
    this.gitPath = opts.gitPath ?? 'git';
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.redact = opts.redact ?? ((s) => s);
  }

  /** The repository `folder` is in; undefined when it is in none (or does not exist). */
  async repoInfo(folder: string): Promise<RepoInfo | undefined> {
    if (!(await fs.promises.stat(folder).catch(() => undefined))?.isDirectory()) return undefined;
    let shown: string;
    try {
      shown = (await this.run(['rev-parse', '--show-toplevel'], { cwd: folder })).stdout.toString('utf8').trim();
    } catch (error) {
      if (WorktreeGitError.is(error, 'failed')) return undefined;
      throw error;
    }
    const top = await fs.promises.realpath(shown);
    const [ref, head] = await Promise.all([
      this.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: top, okCodes: [0, 1] }),
      this.run(['rev-parse', '--quiet', '--verify', 'HEAD^{commit}'], { cwd: top, okCodes: [0, 1] }),
    ]);
    return { top, branch: ref.code === 0 ? ref.stdout.toString('utf8').trim() : undefined, head: head.code === 0 ? head.stdout.toString('utf8').trim() : '' };
  }

  /** `git worktree add -b <branch> <path> <base>` (the new branch does not track `base`); makes `path`'s parent. */
  async add(o: { top: string; path: string; branch: string; base: string }): Promise<void> {
    const where = path.resolve(o.path);
    await fs.promises.mkdir(path.dirname(where), { recursive: true });
    await this.run(['worktree', 'add', '--quiet', '--no-track', '-b', this.name(o.branch), where, this.name(o.base)], { cwd: o.top });
  }

  /** `git branch -m <from> <to>`. */
  async renameBranch(cwd: string, from: string, to: string): Promise<void> {
    await this.run(['branch', '-m', this.name(from), this.name(to)], { cwd });
  }

  /**
   * `wanted`, or `wanted-2`, `-3`… when a branch of that name exists, or one git could not have beside it:
   * `a/b` blocks `a` (then `a-2`) and `a/b/c` (then `a/b-c`: no name below an existing branch can be made).
   */
  async uniqueBranch(top: string, wanted: string): Promise<string> {
    const out = (await this.run(['for-each-ref', '--format=%(refname)', 'refs/heads/'], { cwd: top })).stdout.toString('utf8');
    const taken = out.split('\n').filter(Boolean).map((r) => r.replace(/^refs\/heads\//, ''));
    let name = wanted;
    for (let above = taken.find((t) => name.startsWith(`${t}/`)); above; above = taken.find((t) => name.startsWith(`${t}/`))) {
      name = `${above}-${name.slice(above.length + 1)}`;
    }
    const clash = (n: string) => taken.some((t) => t === n || t.startsWith(`${n}/`));
    if (!clash(name)) return name;
    for (let n = 2; ; n++) if (!clash(`${name}-${n}`)) return `${name}-${n}`;
  }

  /**
   * The worktree's files (committed, uncommitted and untracked but not ignored) against commit `base`. Read
   * through a temporary index, so the worktree's own index (what the user staged) is never touched.
   */
  async changes(worktree: string, base: string): Promise<FileChange[]> {
    const b = this.name(base);
    const out = await this.withTempIndex(worktree, (env) => this.run(['diff-index', '--cached', '-z', '--no-renames', '--raw', '--numstat', b, '--'], { cwd: worktree, env }));
    const fields = nulFields(out.stdout);
    const byPath = new Map<string, FileChange>();
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (f.startsWith(':')) {
        const status = f.split(' ')[4] ?? 'M';
        const p = fields[++i];
        byPath.set(p, { path: p, change: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified', added: 0, removed: 0 });
      } else {
        const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(f);
        const c = m && byPath.get(m[3]);
        if (m && c && m[1] !== '-') byPath.set(m[3], { ...c, added: Number(m[1]), removed: Number(m[2]) });
      }
    }
    return [...byPath.values()];
  }

  /** The unified diff of the same (see {@link changes}), cut at about `maxBytes` (at a line's end). */
  async diff(worktree: string, base: string, maxBytes = 200_000): Promise<{ text: string; truncated: boolean }> {
    const b = this.name(base);
    const args = ['diff', '--cached', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--src-prefix=a/', '--dst-prefix=b/', b, '--'];
    const r = await this.withTempIndex(worktree, (env) => this.run(args, { cwd: worktree, env, maxStdout: maxBytes + 1 }));
    if (r.stdout.length <= maxBytes && !r.truncated) return { text: r.stdout.toString('utf8'), truncated: false };
    const cut = r.stdout.subarray(0, maxBytes);
    const eol = cut.lastIndexOf(0x0a);
    return { text: cut.subarray(0, eol === -1 ? maxBytes : eol + 1).toString('utf8'), truncated: true };
  }

  /** `git add -A` and `git commit -m <message>` (the user's hooks run); the new sha, or undefined when nothing changed. */
  async commitAll(worktree: string, message: string): Promise<string | undefined> {
    await this.run(['add', '-A'], { cwd: worktree });
    const staged = await this.run(['diff', '--cached', '--quiet', '--no-ext-diff'], { cwd: worktree, okCodes: [0, 1] });
    if (staged.code === 0) return undefined;
    await this.run(['commit', '--quiet', '-m', message], { cwd: worktree });
    return this.headOf(worktree);
  }

  /** True when `git status --porcelain` prints nothing. */
  async isClean(worktree: string): Promise<boolean> {
    return (await this.run(['status', '--porcelain', '-z'], { cwd: worktree })).stdout.length === 0;
  }

  /**
   * `git merge --no-ff -m <message> <branch>` in `top`, whose checked-out branch takes it. A conflict leaves
   * the merge in progress and lists the conflicted paths; any other failure throws.
   */
  async merge(top: string, branch: string, message: string): Promise<MergeResult> {
    const args = ['merge', '--no-ff', '--no-edit', '-m', message, this.name(branch)];
    const r = await this.run(args, { cwd: top, okCodes: [0, 1] });
    if (r.code === 0) return { ok: true, sha: await this.headOf(top) };
    const conflicts = await this.conflicts(top);
    if (conflicts.length) return { ok: false, conflicts };
    throw this.failure(args, r.code, r.stderr);
  }

  /** The content of stage `n` of a conflicted file (1 base, 2 ours, 3 theirs); '' when that stage does not exist. */
  async stage(top: string, file: string, n: 1 | 2 | 3): Promise<string> {
    const entry = (await this.unmerged(top, file)).find((e) => e.path === file && e.stage === n);
    if (!entry) return '';
    return (await this.run(['cat-file', 'blob', entry.sha], { cwd: top })).stdout.toString('utf8');
  }

  /** The content of `file` (relative to `top`) in `commit`; '' when the commit has no such file. */
  async fileAt(top: string, commit: string, file: string): Promise<string> {
    const out = await this.run(['ls-tree', '-z', this.name(commit), '--', file], { cwd: top, env: literal });
    const m = nulFields(out.stdout).map((f) => /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(f)).find((x) => x?.[2] === file);
    return m ? (await this.run(['cat-file', 'blob', m[1]], { cwd: top })).stdout.toString('utf8') : '';
  }

  /** True while a merge is in progress in `top` (`MERGE_HEAD` exists). */
  async mergeInProgress(top: string): Promise<boolean> {
    return (await this.run(['rev-parse', '--quiet', '--verify', 'MERGE_HEAD'], { cwd: top, okCodes: [0, 1] })).code === 0;
  }

  /** The paths with unmerged stages, relative to `top`. */
  async conflicts(top: string): Promise<string[]> {
    return [...new Set((await this.unmerged(top)).map((e) => e.path))];
  }

  /**
   * Ends a merge whose conflicts the user resolved: `git add -- <files>`, then `git commit --no-edit`; the
   * merge commit's sha. Refuses (reason `conflictMarkers`) while a file still has a marker line.
   */
  async completeMerge(top: string, files: string[]): Promise<string> {
    for (const file of files) {
      const text = await fs.promises.readFile(path.join(top, file), 'utf8').catch(() => undefined); // deleted: resolved by deleting
      if (text !== undefined && markerLine.test(text)) {
        throw new WorktreeGitError('conflictMarkers', ['add', '--', file], 'markers', '', `${file} still has conflict markers (lines starting with <<<<<<< or >>>>>>>): resolve them before completing the merge`);
      }
    }
    if (files.length) await this.run(['add', '--', ...files], { cwd: top, env: literal });
    await this.run(['commit', '--quiet', '--no-edit'], { cwd: top });
    return this.headOf(top);
  }

  /** `git merge --abort`. */
  async abortMerge(top: string): Promise<void> {
    await this.run(['merge', '--abort'], { cwd: top });
  }

  /** `git worktree remove --force <path>`, then `git worktree prune`; a folder already gone is only pruned. */
  async remove(top: string, worktree: string): Promise<void> {
    const where = path.resolve(worktree);
    if (fs.existsSync(where)) await this.run(['worktree', 'remove', '--force', where], { cwd: top });
    await this.run(['worktree', 'prune'], { cwd: top });
  }

  /** `git worktree add <path> <branch>` (unarchive): the branch checked out again in a new folder. */
  async restore(top: string, worktree: string, branch: string): Promise<void> {
    const where = path.resolve(worktree);
    await this.run(['worktree', 'prune'], { cwd: top }); // a registration left by a folder deleted by hand would refuse the path
    await fs.promises.mkdir(path.dirname(where), { recursive: true });
    await this.run(['worktree', 'add', '--quiet', where, this.name(branch)], { cwd: top });
  }

  /** `git branch -D <branch>`. */
  async deleteBranch(top: string, branch: string): Promise<void> {
    await this.run(['branch', '-D', this.name(branch)], { cwd: top });
  }

  /** True when `refs/heads/<branch>` exists. */
  async branchExists(top: string, branch: string): Promise<boolean> {
    return (await this.run(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: top, okCodes: [0, 1] })).code === 0;
  }

  /** The full sha of `HEAD` in `worktree`. */
  async headOf(worktree: string): Promise<string> {
    return (await this.run(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: worktree })).stdout.toString('utf8').trim();
  }

  /** The unmerged index entries of `top` (of one file when given). */
  private async unmerged(top: string, file?: string): Promise<{ path: string; stage: number; sha: string }[]> {
    const out = await this.run(['ls-files', '--unmerged', '-z', '--', ...(file === undefined ? [] : [file])], { cwd: top, env: literal });
    return nulFields(out.stdout).flatMap((f) => {
      const m = /^\d+ ([0-9a-f]+) (\d)\t(.*)$/s.exec(f);
      return m ? [{ sha: m[1], stage: Number(m[2]), path: m[3] }] : [];
    });
  }

  /**
   * Runs `f` with `GIT_INDEX_FILE` naming a fresh index that holds the worktree's files: a copy of its index,
   * then `add -A` (untracked files in, ignored ones out, deletions recorded). Removed afterwards.
   */
  private async withTempIndex<T>(worktree: string, f: (env: Record<string, string>) => Promise<T>): Promise<T> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'sb-wt-index-'));
    const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
    try {
      // a copy of the worktree's own index keeps git's stat cache, so `add -A` hashes only what changed (the
      // worktree's index itself is never written); without one, HEAD's tree is read in
      const own = (await this.run(['rev-parse', '--git-path', 'index'], { cwd: worktree })).stdout.toString('utf8').trim();
      const copied = await fs.promises.copyFile(path.resolve(worktree, own), env.GIT_INDEX_FILE).then(() => true, () => false);
      if (!copied) await this.run(['read-tree', 'HEAD'], { cwd: worktree, env });
      await this.run(['add', '-A'], { cwd: worktree, env });
      return await f(env);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  /** A branch or commit name, refused when git would read it as an option. */
  private name(ref: string): string {
    if (!ref || ref.startsWith('-')) throw new WorktreeGitError('badName', [], 'badName', '', `"${this.redact(ref)}" is not a branch or commit name`);
    return ref;
  }

  private failure(args: readonly string[], code: number | string, stderr: string, reason: WorktreeGitErrorReason = 'failed', message?: string): WorktreeGitError {
    return new WorktreeGitError(reason, args.map((a) => this.redact(a)), code, this.redact(stderr), message && this.redact(message));
  }

  /** Runs `git -c core.quotePath=false <args>`; rejects with a {@link WorktreeGitError} on an exit code not in `okCodes`. */
  private run(args: readonly string[], o: RunOptions): Promise<RunResult> {
    const full = ['-c', 'core.quotePath=false', ...args];
    return new Promise((resolve, reject) => {
      const child = execFile(this.gitPath, full, {
        cwd: o.cwd, env: { ...userGitEnv(), ...o.env }, encoding: 'buffer', maxBuffer: o.maxStdout ?? 1024 * 1024 * 1024, timeout: this.timeoutMs, windowsHide: true,
      }, (error, stdout, stderrBuf) => {
        const stderr = stderrBuf.toString('utf8');
        if (!error) return resolve({ stdout, stderr, code: 0, truncated: false });
        const code = (error as { code?: unknown }).code;
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' && o.maxStdout !== undefined) return resolve({ stdout, stderr, code: 0, truncated: true });
        if (typeof code === 'number') return (o.okCodes ?? [0]).includes(code) ? resolve({ stdout, stderr, code, truncated: false }) : reject(this.failure(args, code, stderr));
        if (code === 'ENOENT') {
          const folder = fs.existsSync(o.cwd);
          return reject(this.failure(args, code, stderr, folder ? 'noGit' : 'failed', folder ? `git was not found (${this.gitPath})` : `the folder ${o.cwd} does not exist`));
        }
        if (error.killed) return reject(this.failure(args, 'timedOut', stderr, 'timedOut', `git ${args.slice(0, 2).join(' ')} took longer than ${Math.round(this.timeoutMs / 1000)} s and was stopped`));
        reject(this.failure(args, typeof code === 'string' ? code : 'failed', stderr || error.message));
      });
      child.stdin?.on('error', () => undefined);
      child.stdin?.end();
    });
  }
}
