/**
 * The shadow repository of one folder (docs/checkpoints.md): a git repository in the
 * extension's storage whose work tree is the folder. A snapshot is `git add` of what changed since the last
 * one (git's index, kept per folder, is the stat cache: unchanged files are not read again), `write-tree`,
 * `commit-tree` and a ref per checkpoint. Objects are shared by every snapshot of the folder, so a file that
 * did not change costs nothing. The folder's own `.git` is never opened: git is told every path explicitly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitCli, GitError, nulFields } from './gitCli';
import type { RepoPaths } from './gitCli';
import { excludeFile, readSkipState, skippedPaths, unreadablePaths, updateSkipState, userExclude, writeSkipState } from './snapshotScan';
import type { SkippedPath, SkipState } from './snapshotScan';

/** One snapshot of the folder. */
export interface Snapshot {
  readonly commit: string;
  readonly tree: string;
  /** What it left out (over the size cap, nested repositories, unreadable files). */
  readonly skipped: readonly SkippedPath[];
}

/** A file that differs between two snapshots (paths relative to the folder, `/`-separated). */
export interface FileDelta {
  readonly path: string;
  /** `A`: only in the second, `D`: only in the first, `M`: in both (content or mode changed). */
  readonly status: 'A' | 'D' | 'M';
  readonly oldBlob?: string;
  readonly newBlob?: string;
  readonly oldMode?: string;
  readonly newMode?: string;
  /** Lines added and removed (absent for binary files). */
  readonly added?: number;
  readonly removed?: number;
}

/** Attributes that win over the folder's `.gitattributes`: no filter (LFS), no line-ending or encoding conversion, so a snapshot keeps the exact bytes. */
const attributes = '* -text -filter -ident -working-tree-encoding\n';
const zeroSha = /^0+$/;
/** A listing of changes slower than this makes the next snapshot refresh the whole index. */
const slowListMs = 150;
/** More new or changed files than this in one snapshot are written as one pack (see `add`). */
const bulkFiles = 200;
/** A lock file older than this was left by a git that died (a crash of its window): it is removed. */
const staleLockMs = 10 * 60_000;

/** One folder's shadow repository. */
export class ShadowRepo {
  readonly paths: RepoPaths;
  private readonly _stateFile: string;
  private _state: SkipState;
  /** True until the first snapshot of this process refreshed every entry of the index. */
  private _refreshed = false;
  /** The tree of each commit this process made (saves a `rev-parse`). */
  private readonly _trees = new Map<string, string>();
  private _indexTree: { tree: string; mtimeMs: number; size: number } | undefined;

  private constructor(private readonly git: GitCli, gitDir: string, readonly root: string, private readonly maxFileBytes: () => number) {
    this.paths = { gitDir, workTree: root, indexFile: path.join(gitDir, 'switchboard.index') };
    this._stateFile = path.join(gitDir, 'switchboard-skipped.json');
    this._state = readSkipState(this._stateFile);
  }

  /** Opens the shadow repository in `gitDir` for `root`, creating it when it does not exist. */
  static async open(git: GitCli, gitDir: string, root: string, maxFileBytes: () => number): Promise<ShadowRepo> {
    if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
      fs.mkdirSync(path.dirname(gitDir), { recursive: true });
      // no template: no sample hooks, no description; bare: nothing of it lives in the folder
      await git.plain(['init', '--quiet', '--bare', '--template=', gitDir]);
    }
    fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true });
    fs.writeFileSync(path.join(gitDir, 'info', 'attributes'), attributes);
    fs.writeFileSync(path.join(gitDir, 'switchboard-root'), root);
    const repo = new ShadowRepo(git, gitDir, root, maxFileBytes);
    repo.writeExclude();
    return repo;
  }

  /** True when no snapshot was taken yet (the first one reads every file: it may take seconds). */
  get isEmpty(): boolean {
    return !fs.existsSync(this.paths.indexFile);
  }

  /**
   * Takes a snapshot: the files that changed since the last one are read (the first snapshot of this process
   * also refreshes the index of every file, so files touched but not changed stop being re-read). `parent`
   * is the previous commit of the same session; when the tree did not change it is returned as it is (commits
   * have no parents: each checkpoint's ref keeps exactly its own tree alive).
   */
  async snapshot(message: string, parent?: string): Promise<Snapshot> {
    const { unreadable, unchanged } = await this.stage();
    const tree = (unchanged && this.cachedIndexTree()) || await this.writeTree();
    const skipped = skippedPaths(this._state, unreadable);
    if (parent && (await this.treeOf(parent)) === tree) return { commit: parent, tree, skipped };
    // no parent: a dropped checkpoint must not stay reachable from a newer one (pruning frees its objects)
    const args = ['commit-tree', tree, '-m', message];
    const commit = (await this.git.run(this.paths, args)).stdout.toString('utf8').trim();
    this._trees.set(commit, tree);
    return { commit, tree, skipped };
  }

  /**
   * Reads into the index what a snapshot would, without a commit: on the first call of this process, every file. A
   * warm-up before the first checkpoint of a window (its snapshot then reads only what changed since).
   */
  async prime(): Promise<void> {
    if (this._refreshed) return;
    await this.stage();
    await this.writeTree(); // remembered: a snapshot with nothing new to add skips its own write-tree
  }

  /** Reads the files that changed since the last snapshot into the index (the first of this process: every file). */
  private async stage(): Promise<{ unreadable: string[]; unchanged: boolean }> {
    const listStart = Date.now();
    const changed = nulFields((await this.gitRetrying(['ls-files', '-z', '--modified', '--deleted', '--others', '--exclude-standard'])).stdout);
    const slowList = Date.now() - listStart > slowListMs;
    const unique = [...new Set(changed)];
    const skipChanged = updateSkipState(this.root, this._state, unique, this.maxFileBytes());
    if (skipChanged) {
      this.writeExclude();
      writeSkipState(this._stateFile, this._state);
      await this.untrackSkipped();
    }
    const toAdd = unique.filter((p) => !p.endsWith('/') && !this._state.large.has(p));
    let unreadable: string[] = [];
    const unchanged = this._refreshed && !toAdd.length && !skipChanged;
    // many new files (the first snapshot, an install): one pack file instead of a file per object
    const bulk = this.isEmpty || toAdd.length > bulkFiles;
    if (!this._refreshed) {
      unreadable = await this.add([], bulk);
      this._refreshed = true;
    } else if (toAdd.length) {
      unreadable = await this.add(toAdd, bulk);
    }
    // files whose stat changed but not their content (touched, or written in the second the index was) are
    // read again by every `ls-files` until a whole `add -A` records their stat: the next snapshot does one
    if (slowList) this._refreshed = false;
    return { unreadable, unchanged };
  }

  /** The files that differ from commit `a` to commit `b`, with line counts. */
  async diff(a: string, b: string): Promise<FileDelta[]> {
    const fields = nulFields((await this.git.run(this.paths, ['diff-tree', '-r', '-z', '--no-renames', '--raw', '--numstat', a, b])).stdout);
    const deltas = new Map<string, FileDelta>();
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (f.startsWith(':')) {
        const [oldMode, newMode, oldBlob, newBlob, status] = f.slice(1).split(' ');
        const p = fields[++i];
        const s = status === 'A' || status === 'D' ? status : 'M';
        deltas.set(p, {
          path: p, status: s,
          ...(zeroSha.test(oldBlob) ? {} : { oldBlob, oldMode }),
          ...(zeroSha.test(newBlob) ? {} : { newBlob, newMode }),
        });
      } else {
        const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(f);
        const d = m && deltas.get(m[3]);
        if (m && d && m[1] !== '-') deltas.set(m[3], { ...d, added: Number(m[1]), removed: Number(m[2]) });
      }
    }
    return [...deltas.values()];
  }

  /** The blobs' contents, by id (one `cat-file --batch` run). */
  async readBlobs(ids: readonly string[]): Promise<Map<string, Buffer>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, Buffer>();
    if (!unique.length) return out;
    const buf = (await this.git.run(this.paths, ['cat-file', '--batch'], { input: `${unique.join('\n')}\n` })).stdout;
    let pos = 0;
    while (pos < buf.length) {
      const eol = buf.indexOf(0x0a, pos);
      if (eol === -1) break;
      const header = buf.subarray(pos, eol).toString('utf8').split(' ');
      pos = eol + 1;
      if (header[1] === 'missing' || header.length < 3) continue;
      const size = Number(header[2]);
      out.set(header[0], buf.subarray(pos, pos + size));
      pos += size + 1;
    }
    return out;
  }

  /** Every file path in a commit's tree. */
  async listFiles(commit: string): Promise<string[]> {
    return nulFields((await this.git.run(this.paths, ['ls-tree', '-r', '-z', '--name-only', commit])).stdout);
  }

  /** The mode and blob of some files in a commit (relative paths); files the commit lacks are absent. */
  async lsTree(commit: string, rels: readonly string[]): Promise<Map<string, { mode: string; blob: string }>> {
    const out = new Map<string, { mode: string; blob: string }>();
    if (!rels.length) return out;
    const fields = nulFields((await this.git.run(this.paths, ['ls-tree', '-z', '--full-tree', commit, '--', ...rels])).stdout);
    for (const f of fields) {
      const m = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(f);
      if (m && m[2] === 'blob') out.set(m[4], { mode: m[1], blob: m[3] });
    }
    return out;
  }

  /** Stores files' current contents as blobs (for a kept change's new baseline); ids in the order given, undefined for a missing file. */
  async hashFiles(rels: readonly string[]): Promise<(string | undefined)[]> {
    const present = rels.filter((r) => fs.existsSync(path.join(this.root, r)));
    const input = `${present.map((r) => path.join(this.root, r)).join('\n')}\n`;
    const ids = present.length ? (await this.git.run(this.paths, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input })).stdout.toString('utf8').split('\n') : [];
    const byPath = new Map(present.map((r, i) => [r, ids[i]]));
    return rels.map((r) => byPath.get(r));
  }

  /** Points refs at commits (`update-ref --stdin`); `undefined` deletes the ref. */
  async setRefs(updates: ReadonlyMap<string, string | undefined>): Promise<void> {
    if (!updates.size) return;
    const lines = [...updates].map(([ref, commit]) => (commit ? `update ${ref} ${commit}` : `delete ${ref}`));
    await this.git.run(this.paths, ['update-ref', '--stdin'], { input: `${lines.join('\n')}\n` });
  }

  /** The refs below `prefix` (e.g. `refs/switchboard/`). */
  async refs(prefix: string): Promise<string[]> {
    const out = (await this.git.run(this.paths, ['for-each-ref', '--format=%(refname)', prefix])).stdout.toString('utf8');
    return out.split('\n').filter(Boolean);
  }

  /**
   * Removes the objects no ref (and not the index) reaches any more: dropped checkpoints free their space.
   * Packs are rewritten first (without a delta search: it only copies), since prune leaves packed objects.
   */
  async prune(): Promise<void> {
    await this.git.run(this.paths, ['repack', '-a', '-d', '-q', '--window=0']);
    await this.git.run(this.paths, ['prune', '--expire=now']);
  }

  /** `write-tree`, remembering the tree with the index file's stat (see {@link cachedIndexTree}). */
  private async writeTree(): Promise<string> {
    const tree = (await this.gitRetrying(['write-tree'])).stdout.toString('utf8').trim();
    const st = fs.statSync(this.paths.indexFile, { throwIfNoEntry: false });
    this._indexTree = st ? { tree, mtimeMs: st.mtimeMs, size: st.size } : undefined;
    return tree;
  }

  /**
   * The index's tree as the last `write-tree` of this process wrote it, while the index file is unchanged
   * (another window's git may have written it since): a snapshot with nothing to add skips `write-tree`.
   */
  private cachedIndexTree(): string | undefined {
    const st = fs.statSync(this.paths.indexFile, { throwIfNoEntry: false });
    const c = this._indexTree;
    return c && st && st.mtimeMs === c.mtimeMs && st.size === c.size ? c.tree : undefined;
  }

  /** The tree of a commit. */
  private async treeOf(commit: string): Promise<string | undefined> {
    const known = this._trees.get(commit);
    if (known) return known;
    try {
      return (await this.git.run(this.paths, ['rev-parse', `${commit}^{tree}`])).stdout.toString('utf8').trim();
    } catch {
      return undefined;
    }
  }

  /**
   * `git add -A` of `paths` (all when empty); returns the files it could not read. `bulk` writes the objects
   * into one pack (git's bulk check-in for files over `core.bigFileThreshold`): creating one file per object
   * costs most of a first snapshot's time (measured: 27 s against 8 s for 10,000 files on a loaded machine).
   */
  private async add(paths: readonly string[], bulk: boolean): Promise<string[]> {
    const args = [...(bulk ? ['-c', 'core.bigFileThreshold=1'] : []), 'add', '-A', '--ignore-errors', ...(paths.length ? ['--pathspec-from-file=-', '--pathspec-file-nul'] : [])];
    const input = paths.length ? paths.join('\0') : undefined;
    let res;
    try {
      res = await this.gitRetrying(args, input, [0, 1]);
    } catch (error) {
      // a file listed as changed was deleted again before git read it: add everything instead
      if (paths.length && error instanceof GitError && /did not match any files/.test(error.stderr)) return this.add([], bulk);
      throw error;
    }
    if (res.code !== 0 && /^fatal:/m.test(res.stderr)) throw new GitError(args, res.code, res.stderr);
    return unreadablePaths(res.stderr);
  }

  /** Files that went over the cap while tracked leave the index (they are listed as skipped instead). */
  private async untrackSkipped(): Promise<void> {
    const large = [...this._state.large.keys()];
    if (!large.length) return;
    await this.gitRetrying(['rm', '--cached', '--force', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], large.join('\0'));
  }

  private writeExclude(): void {
    fs.writeFileSync(path.join(this.paths.gitDir, 'info', 'exclude'), excludeFile(userExclude(this.root), this._state));
  }

  /** Runs git; when the index is locked by a git that died long ago, removes the lock and runs it again. */
  private async gitRetrying(args: readonly string[], input?: string, okCodes?: readonly number[]) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.git.run(this.paths, args, { ...(input !== undefined ? { input } : {}), ...(okCodes ? { okCodes } : {}) });
      } catch (error) {
        if (attempt >= 20 || !(error instanceof GitError) || !/\.lock'?: File exists/.test(error.stderr)) throw error;
        const lock = `${this.paths.indexFile}.lock`;
        const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > staleLockMs) fs.rmSync(lock, { force: true });
        else await new Promise((r) => setTimeout(r, 100)); // another window's git is at work
      }
    }
  }
}
