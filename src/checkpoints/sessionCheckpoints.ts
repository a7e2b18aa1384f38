/**
 * The checkpoints of one session (docs/checkpoints.md): taken before each turn, at its end
 * and before each restore, over every root of the session; the files that changed between two of them; and
 * restoring a checkpoint, whole or for some files, which first takes a checkpoint of the present so the
 * restore can be undone. Paths outside this module are absolute; inside a root's repository they are relative.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CheckpointStore } from './checkpointStore';
import { nodeFileWriter, writeVersion } from './fileWriter';
import type { FileVersion, FileWriter } from './fileWriter';
import type { Checkpoint, CheckpointKind } from './manifest';
import type { FileDelta, ShadowRepo } from './shadowRepo';
import type { SkippedPath } from './snapshotScan';

export type { Checkpoint, CheckpointKind } from './manifest';

/** A blob of a root's repository with its git mode. */
export interface BlobRef {
  readonly blob: string;
  readonly mode: string;
}

/** A file that differs between two checkpoints (or, for a restore, between now and the checkpoint). */
export interface FileChange {
  /** Absolute path. */
  readonly path: string;
  readonly root: string;
  /** Relative to the root, `/`-separated. */
  readonly rel: string;
  /** From the first to the second: `created` exists only in the second, `deleted` only in the first. */
  readonly change: 'created' | 'modified' | 'deleted';
  /** Lines added and removed; absent for a binary file. */
  readonly added?: number;
  readonly removed?: number;
  readonly before?: BlobRef;
  readonly after?: BlobRef;
}

/** What restoring a checkpoint will do, for the preview. */
export interface RestorePlan {
  /** The checkpoint of the present (the restore's undo point). */
  readonly from: Checkpoint;
  readonly to: Checkpoint;
  /** Only these files (absolute), or every file when absent. */
  readonly only?: readonly string[];
  /** The files that will change, from now to the checkpoint. */
  readonly files: readonly FileChange[];
  /** Files no checkpoint has (over the size cap, unreadable, nested repositories): left as they are. */
  readonly leftAlone: readonly string[];
}

/** What a restore did. */
export interface RestoreResult {
  /** The checkpoint taken just before: restoring it undoes the restore. */
  readonly undo: Checkpoint;
  readonly files: readonly FileChange[];
}

/** The checkpoints of one session. */
export class SessionCheckpoints {
  /** The changes of each turn (their checkpoints never change), by `<start>:<end>`. */
  private readonly _turnDiffs = new Map<string, FileChange[]>();
  private readonly _blobs = new Map<string, Uint8Array>();

  constructor(
    private readonly store: CheckpointStore,
    readonly key: string,
    /** The session's roots (real paths), read at each checkpoint. */
    private readonly roots: () => readonly string[],
  ) {}

  /** Every checkpoint, oldest first. */
  get all(): readonly Checkpoint[] {
    return this.store.manifest(this.key).checkpoints;
  }

  get(id: string): Checkpoint | undefined {
    return this.all.find((c) => c.id === id);
  }

  /** The checkpoint of kind `kind` for a user message (the newest, should there be several). */
  forEntry(entryId: string, kind: CheckpointKind = 'turn'): Checkpoint | undefined {
    return [...this.all].reverse().find((c) => c.entryId === entryId && c.kind === kind);
  }

  /** True when the session has no checkpoint yet (its first one reads every file of its roots). */
  get isFirst(): boolean {
    return this.all.length === 0;
  }

  /** Takes a checkpoint of every root; roots are snapshotted side by side. */
  async take(kind: CheckpointKind, entryId?: string): Promise<Checkpoint> {
    const m = this.store.manifest(this.key);
    const id = `c${m.next++}`;
    const parent = m.checkpoints[m.checkpoints.length - 1];
    const roots = [...new Set(this.roots())];
    const message = `Switchboard checkpoint ${id} (${kind})`;
    const snaps = await Promise.all(roots.map((root) => this.store.withRepo(root, async (repo) => {
      const snap = await repo.snapshot(message, parent?.commits[root]);
      await repo.setRefs(new Map([[`${this.store.refPrefix(this.key)}${id}`, snap.commit]]));
      return [root, snap] as const;
    })));
    const checkpoint: Checkpoint = {
      id, kind, ...(entryId !== undefined ? { entryId } : {}), createdAt: Date.now(),
      commits: Object.fromEntries(snaps.map(([root, s]) => [root, s.commit])),
      skipped: Object.fromEntries(snaps.filter(([, s]) => s.skipped.length).map(([root, s]) => [root, [...s.skipped]])),
    };
    await this.store.updateManifest(this.key, (mf) => { mf.checkpoints.push(checkpoint); });
    return checkpoint;
  }

  /** Forgets a checkpoint (a restore's undo point whose preview was cancelled). */
  discard(id: string): Promise<void> {
    return this.store.dropCheckpoints(this.key, [id]);
  }

  /** The files that differ from checkpoint `fromId` to `toId`, in the roots both have; skipped paths left out. */
  async changes(fromId: string, toId: string): Promise<FileChange[]> {
    const from = this.require(fromId);
    const to = this.require(toId);
    const roots = Object.keys(from.commits).filter((r) => to.commits[r] !== undefined);
    const perRoot = await Promise.all(roots.map(async (root) => {
      const skipped = [...(from.skipped[root] ?? []), ...(to.skipped[root] ?? [])];
      const deltas = await this.store.withRepo(root, (repo) => repo.diff(from.commits[root], to.commits[root]));
      return deltas.filter((d) => !isSkipped(d.path, skipped)).map((d) => toChange(root, d));
    }));
    return perRoot.flat().sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * What restoring checkpoint `toId` (whole, or only the files `only`) will change: first a checkpoint of
   * the present is taken (the undo point), then compared with the target.
   */
  async planRestore(toId: string, only?: readonly string[]): Promise<RestorePlan> {
    const to = this.require(toId);
    const from = await this.take('restore');
    return this.plan(from, to, only);
  }

  /**
   * Restores a planned checkpoint. The folders may have changed since the preview: they are checkpointed
   * again onto the plan's undo point, and the files to write are worked out from that.
   */
  async restore(plan: RestorePlan, writer: FileWriter = nodeFileWriter): Promise<RestoreResult> {
    const from = await this.refresh(plan.from);
    const current = from === plan.from ? plan : await this.plan(from, plan.to, plan.only);
    for (const root of new Set(current.files.map((f) => f.root))) {
      await this.store.withRepo(root, (repo) => applyRoot(repo, root, current.to.commits[root], current.files.filter((f) => f.root === root), writer));
    }
    return { undo: from, files: current.files };
  }

  /** The contents of files in a checkpoint (absolute paths); undefined where the checkpoint has no such file. */
  async versions(checkpointId: string, files: readonly string[]): Promise<Map<string, FileVersion | undefined>> {
    const c = this.require(checkpointId);
    const out = new Map<string, FileVersion | undefined>();
    for (const [root, commit] of Object.entries(c.commits)) {
      const rels = files.filter((f) => isInside(f, root)).map((f) => relOf(root, f));
      if (!rels.length) continue;
      const found = await this.store.withRepo(root, async (repo) => {
        const entries = await repo.lsTree(commit, rels);
        const blobs = await repo.readBlobs([...entries.values()].map((e) => e.blob));
        return new Map([...entries].map(([rel, e]) => [rel, { mode: e.mode, bytes: blobs.get(e.blob) ?? new Uint8Array() }]));
      });
      for (const rel of rels) out.set(path.join(root, rel), found.get(rel));
    }
    return out;
  }

  /** A blob's content in a root's repository. */
  async blob(root: string, ref: BlobRef): Promise<FileVersion> {
    const blobs = await this.store.withRepo(root, (repo) => repo.readBlobs([ref.blob]));
    return { mode: ref.mode, bytes: blobs.get(ref.blob) ?? new Uint8Array() };
  }

  /**
   * The files the session's turns changed (from the checkpoint before each turn to the one at its end), each
   * with its content before the first turn that changed it, or where the user kept a change, its content
   * then (undefined: the file did not exist). The changed-files bar compares these with the files now.
   */
  async turnChanges(): Promise<Map<string, { root: string; before: BlobRef | undefined }>> {
    const out = new Map<string, { root: string; before: BlobRef | undefined }>();
    const all = this.all;
    for (const end of all) {
      if (end.kind !== 'end' || end.entryId === undefined) continue;
      const start = [...all.slice(0, all.indexOf(end))].reverse().find((c) => c.kind === 'turn' && c.entryId === end.entryId);
      if (!start) continue;
      const key = `${start.id}:${end.id}`;
      let changes = this._turnDiffs.get(key);
      if (!changes) {
        changes = await this.changes(start.id, end.id);
        this._turnDiffs.set(key, changes);
      }
      for (const f of changes) if (!out.has(f.path)) out.set(f.path, { root: f.root, before: f.before });
    }
    const kept = this.store.manifest(this.key).kept;
    for (const [file, blob] of Object.entries(kept)) {
      const root = out.get(file)?.root ?? this.roots().find((r) => isInside(file, r));
      if (root) out.set(file, { root, before: blob ?? undefined });
    }
    return out;
  }

  /** The changed-files bar's Keep: the files' present contents become their baseline. */
  async keep(files: readonly string[]): Promise<void> {
    const byRoot = new Map<string, string[]>();
    for (const f of files) {
      const root = this.roots().find((r) => isInside(f, r));
      if (root) byRoot.set(root, [...(byRoot.get(root) ?? []), f]);
    }
    const kept: [string, BlobRef | null][] = [];
    for (const [root, list] of byRoot) {
      const ids = await this.store.withRepo(root, (repo) => repo.hashFiles(list.map((f) => relOf(root, f))));
      list.forEach((f, i) => kept.push([f, ids[i] ? { blob: ids[i] as string, mode: modeOf(f) } : null]));
    }
    await this.store.updateManifest(this.key, (m) => { for (const [f, ref] of kept) m.kept[f] = ref; });
  }

  /** Blobs' contents, read in one run per root (and kept for the next time: a blob never changes). */
  async readBlobs(items: readonly { root: string; ref: BlobRef }[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    const missing = new Map<string, string[]>();
    for (const { root, ref } of items) {
      const known = this._blobs.get(ref.blob);
      if (known) out.set(ref.blob, known);
      else missing.set(root, [...(missing.get(root) ?? []), ref.blob]);
    }
    for (const [root, ids] of missing) {
      const read = await this.store.withRepo(root, (repo) => repo.readBlobs(ids));
      for (const [id, bytes] of read) {
        out.set(id, bytes);
        if (this._blobs.size > 500) this._blobs.clear();
        this._blobs.set(id, bytes);
      }
    }
    return out;
  }

  /** The paths (absolute) the checkpoint left out. */
  skipped(checkpointId: string): string[] {
    const c = this.get(checkpointId);
    return c ? Object.entries(c.skipped).flatMap(([root, list]) => list.map((s) => path.join(root, s.path))) : [];
  }

  /** Deletes every checkpoint of the session (the session was deleted). */
  delete(): Promise<void> {
    return this.store.deleteSession(this.key);
  }

  private async plan(from: Checkpoint, to: Checkpoint, only?: readonly string[]): Promise<RestorePlan> {
    const wanted = only && new Set(only);
    const files = (await this.changes(from.id, to.id)).filter((f) => !wanted || wanted.has(f.path));
    const leftAlone = [...new Set([...this.skipped(from.id), ...this.skipped(to.id)])].filter((p) => !wanted || wanted.has(p));
    return { from, to, ...(only ? { only } : {}), files, leftAlone };
  }

  /** Checkpoints the present again onto `from`; the same checkpoint when nothing changed, else `from` with the new commits. */
  private async refresh(from: Checkpoint): Promise<Checkpoint> {
    const snaps = await Promise.all(Object.entries(from.commits).map(([root, commit]) => this.store.withRepo(root, async (repo) => {
      const snap = await repo.snapshot(`Switchboard checkpoint ${from.id} (restore, again)`, commit);
      if (snap.commit !== commit) await repo.setRefs(new Map([[`${this.store.refPrefix(this.key)}${from.id}`, snap.commit]]));
      return [root, snap] as const;
    })));
    if (snaps.every(([root, s]) => s.commit === from.commits[root])) return from;
    const updated: Checkpoint = { ...from, commits: Object.fromEntries(snaps.map(([root, s]) => [root, s.commit])) };
    await this.store.updateManifest(this.key, (m) => { m.checkpoints = m.checkpoints.map((c) => (c.id === from.id ? updated : c)); });
    return updated;
  }

  private require(id: string): Checkpoint {
    const c = this.get(id);
    if (!c) throw new Error(`There is no checkpoint ${id} any more (the oldest are removed to stay within switchboard.checkpoints.maxStorageMB).`);
    return c;
  }
}

/** Writes one root's files as they are in `commit`: deletions first (then the folders they left empty), then the files. */
async function applyRoot(repo: ShadowRepo, root: string, commit: string | undefined, files: readonly FileChange[], writer: FileWriter): Promise<void> {
  const deletions = files.filter((f) => f.change === 'deleted');
  if (deletions.length && commit) {
    for (const f of deletions) await writer.remove(f.path);
    const dirsInTarget = new Set((await repo.listFiles(commit)).flatMap(parentDirs));
    const emptied = [...new Set(deletions.flatMap((f) => parentDirs(f.rel)))].filter((d) => !dirsInTarget.has(d)).sort((a, b) => b.length - a.length);
    for (const d of emptied) await writer.removeEmptyDir(path.join(root, d));
  }
  const writes = files.filter((f) => f.after);
  const blobs = await repo.readBlobs(writes.map((f) => f.after?.blob ?? ''));
  for (const f of writes) {
    const after = f.after as BlobRef;
    await writeVersion(writer, f.path, { mode: after.mode, bytes: blobs.get(after.blob) ?? new Uint8Array() });
  }
}

/** `a/b/c.txt` → `['a/b', 'a']`. */
function parentDirs(rel: string): string[] {
  const out: string[] = [];
  for (let d = path.posix.dirname(rel); d !== '.' && d !== '/'; d = path.posix.dirname(d)) out.push(d);
  return out;
}

function toChange(root: string, d: FileDelta): FileChange {
  const change = d.status === 'A' ? 'created' : d.status === 'D' ? 'deleted' : 'modified';
  return {
    path: path.join(root, ...d.path.split('/')), root, rel: d.path, change,
    ...(d.added !== undefined ? { added: d.added, removed: d.removed ?? 0 } : {}),
    ...(d.oldBlob && d.oldMode ? { before: { blob: d.oldBlob, mode: d.oldMode } } : {}),
    ...(d.newBlob && d.newMode ? { after: { blob: d.newBlob, mode: d.newMode } } : {}),
  };
}

function isSkipped(rel: string, skipped: readonly SkippedPath[]): boolean {
  return skipped.some((s) => rel === s.path || (s.reason === 'repository' && rel.startsWith(`${s.path}/`)));
}

function isInside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** A file's mode as git records it. */
function modeOf(file: string): string {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) return '120000';
  return st && st.mode & 0o111 ? '100755' : '100644';
}

function relOf(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
