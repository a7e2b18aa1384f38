/**
 * The checkpoint store (docs/checkpoints.md): one shadow repository per folder, shared by
 * every session that works in it (so snapshots of one workspace share their objects), and one record per
 * session. Layout of `dir`:
 *
 *     repos/<hash of the folder's real path>/   a bare git repository (+ its own index) for that folder
 *     sessions/<hash of the session key>.json    the session's checkpoints (manifest.ts)
 *
 * Each checkpoint is a ref `refs/switchboard/<session hash>/<id>` in the repository of each root. The store
 * is capped: past `maxStorageBytes` the oldest checkpoints (of any session) go first and git prunes what no
 * ref reaches any more. Deleting a session drops its refs, its record, and a repository nothing uses.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GitCli } from './gitCli';
import { readAnyManifest, readManifest, writeManifest } from './manifest';
import type { Manifest } from './manifest';
import { ShadowRepo } from './shadowRepo';

/** What the store is given. */
export interface CheckpointStoreOptions {
  /** Its folder (in the extension's storage). */
  readonly dir: string;
  readonly git?: GitCli;
  /** Files larger than this are not checkpointed (read when each snapshot starts: a setting). */
  readonly maxFileBytes: () => number;
  /** The store's size cap (read when it is enforced: a setting). */
  readonly maxStorageBytes: () => number;
  /** Where it tells what it did and what went wrong. */
  readonly log?: (level: 'info' | 'warn', message: string) => void;
}

/** Runs tasks one after another per key (one git at a time per repository, one writer per record). */
export class SerialQueues {
  private readonly _tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this._tails.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => undefined);
    this._tails.set(key, tail);
    void tail.then(() => { if (this._tails.get(key) === tail) this._tails.delete(key); });
    return next;
  }
}

/** A short, stable file name for a path or key. */
export function hashName(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

/** The checkpoints of every session, in one folder. */
export class CheckpointStore {
  readonly git: GitCli;
  /** Serializes the work on each repository and each session record. */
  readonly queues = new SerialQueues();
  private readonly _repos = new Map<string, Promise<ShadowRepo>>();
  private readonly _manifests = new Map<string, Manifest>();
  private _unavailable: Promise<string | undefined> | undefined;

  constructor(readonly options: CheckpointStoreOptions) {
    this.git = options.git ?? new GitCli();
  }

  get dir(): string { return this.options.dir; }

  /** Why checkpoints cannot be taken (no usable git), or undefined when they can. Asked once. */
  unavailable(): Promise<string | undefined> {
    this._unavailable ??= this.git.unavailable();
    return this._unavailable;
  }

  /** A session's record (read once, then kept: every change goes through {@link updateManifest}). */
  manifest(key: string): Manifest {
    let m = this._manifests.get(key);
    if (!m) {
      m = readManifest(this.manifestFile(key), key);
      this._manifests.set(key, m);
    }
    return m;
  }

  /** Changes a session's record and writes it (one writer at a time per session). */
  updateManifest<T>(key: string, change: (m: Manifest) => T | Promise<T>): Promise<T> {
    return this.queues.run(`session:${key}`, async () => {
      const m = this.manifest(key);
      const result = await change(m);
      fs.mkdirSync(path.dirname(this.manifestFile(key)), { recursive: true });
      writeManifest(this.manifestFile(key), m);
      return result;
    });
  }

  /** Drops checkpoints of a session (their refs, then a prune of each repository). */
  async dropCheckpoints(key: string, ids: readonly string[]): Promise<void> {
    const gone = new Set(ids);
    const dropped = await this.updateManifest(key, (m) => {
      const out = m.checkpoints.filter((c) => gone.has(c.id));
      m.checkpoints = m.checkpoints.filter((c) => !gone.has(c.id));
      return out;
    });
    const roots = new Set(dropped.flatMap((c) => Object.keys(c.commits)));
    const refs = new Set(dropped.map((c) => `${this.refPrefix(key)}${c.id}`));
    for (const root of roots) await this.dropRefs(root, (ref) => refs.has(ref));
  }

  /** The record file of a session. */
  manifestFile(key: string): string {
    return path.join(this.dir, 'sessions', `${hashName(key)}.json`);
  }

  /** The ref prefix of a session's checkpoints. */
  refPrefix(key: string): string {
    return `refs/switchboard/${hashName(key)}/`;
  }

  /** The shadow repository of a folder (opened once, created when new). */
  repo(root: string): Promise<ShadowRepo> {
    let repo = this._repos.get(root);
    if (!repo) {
      repo = ShadowRepo.open(this.git, path.join(this.dir, 'repos', hashName(root)), root, this.options.maxFileBytes);
      repo.catch(() => this._repos.delete(root));
      this._repos.set(root, repo);
    }
    return repo;
  }

  /** Runs `task` on a folder's repository, alone. */
  withRepo<T>(root: string, task: (repo: ShadowRepo) => Promise<T>): Promise<T> {
    return this.queues.run(`repo:${root}`, async () => task(await this.repo(root)));
  }

  /** Bytes the store takes on disk (allocated blocks where the file system reports them). */
  size(): number {
    return diskUsage(this.dir);
  }

  /**
   * Deletes a session's checkpoints: its refs, its record, and the repositories no session uses any more
   * (whole); the others are pruned.
   */
  async deleteSession(key: string): Promise<void> {
    const file = this.manifestFile(key);
    const m = await this.queues.run(`session:${key}`, async () => {
      const read = this._manifests.get(key) ?? readAnyManifest(file);
      this._manifests.delete(key);
      fs.rmSync(file, { force: true });
      return read;
    });
    const roots = new Set(m?.checkpoints.flatMap((c) => Object.keys(c.commits)) ?? []);
    for (const root of roots) await this.dropRefs(root, (ref) => ref.startsWith(this.refPrefix(key)));
    this.log('info', `checkpoints: deleted the checkpoints of session ${key}`);
  }

  /**
   * Keeps the store under its cap: while it is over, the oldest checkpoints of all sessions are dropped (a
   * tenth at a time, never a session's newest two) and the repositories pruned. Returns how many were dropped.
   */
  async enforceCap(): Promise<number> {
    const cap = this.options.maxStorageBytes();
    let dropped = 0;
    for (let round = 0; round < 50 && this.size() > cap; round++) {
      const all = this.allCheckpoints();
      const droppable = all.filter((c) => !c.newest).sort((a, b) => a.createdAt - b.createdAt);
      if (!droppable.length) {
        this.log('warn', `checkpoints: the store takes ${mb(this.size())} MB, over its cap of ${mb(cap)} MB, and has nothing left to drop (one snapshot of the folders is larger than the cap)`);
        break;
      }
      const batch = droppable.slice(0, Math.max(1, Math.ceil(all.length / 10)));
      const bySession = new Map<string, string[]>();
      for (const c of batch) bySession.set(c.key, [...(bySession.get(c.key) ?? []), c.id]);
      for (const [key, ids] of bySession) await this.dropCheckpoints(key, ids);
      dropped += batch.length;
    }
    if (dropped) this.log('info', `checkpoints: dropped the ${dropped} oldest checkpoint(s) to stay under ${mb(cap)} MB`);
    return dropped;
  }

  /** Deletes the refs of a folder's repository that `match`, then prunes; removes the repository when no ref is left. */
  async dropRefs(root: string, match: (ref: string) => boolean): Promise<void> {
    const gitDir = path.join(this.dir, 'repos', hashName(root));
    if (!fs.existsSync(gitDir)) return;
    await this.withRepo(root, async (repo) => {
      const refs = await repo.refs('refs/switchboard/');
      const gone = refs.filter(match);
      await repo.setRefs(new Map(gone.map((r) => [r, undefined])));
      if (gone.length === refs.length) {
        this._repos.delete(root);
        fs.rmSync(gitDir, { recursive: true, force: true });
      } else {
        await repo.prune();
      }
    });
  }

  /** Every checkpoint of every session, marking each session's newest two. */
  private allCheckpoints(): { key: string; id: string; createdAt: number; newest: boolean }[] {
    const dir = path.join(this.dir, 'sessions');
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
    return files.flatMap((f) => {
      const read = readAnyManifest(path.join(dir, f));
      if (!read) return [];
      const m = this._manifests.get(read.key) ?? read;
      const n = m.checkpoints.length;
      return m.checkpoints.map((c, i) => ({ key: m.key, id: c.id, createdAt: c.createdAt, newest: i >= n - 2 }));
    });
  }

  log(level: 'info' | 'warn', message: string): void {
    this.options.log?.(level, message);
  }
}

/** Bytes a folder takes on disk: allocated blocks (512 bytes each) where reported, else file sizes. */
export function diskUsage(dir: string): number {
  let total = 0;
  const walk = (d: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.lstatSync(p, { throwIfNoEntry: false });
        if (st) total += st.blocks ? st.blocks * 512 : st.size;
      }
    }
  };
  walk(dir);
  return total;
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
