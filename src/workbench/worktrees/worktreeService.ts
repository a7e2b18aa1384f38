/**
 * Sessions in their own git worktree (docs/worktrees.md): the worktrees Switchboard made, where they are (a folder
 * it manages in the extension's global storage, outside every workspace), their records on disk, and the git
 * runs that make, name and look at them. The commands are in worktreeCommands.ts, the merge in mergeFlow.ts,
 * "Ask Several Agents…" in fanOut.ts.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WorktreeGit, type RepoInfo } from '../../worktrees/worktreeGit';
import { WorktreeRecords, type FanOutRecord, type WorktreeRecord } from '../../worktrees/worktreeRecords';
import { branchFor, repoFolderName, worktreeFolderName } from '../../worktrees/branchName';

/** A worktree made for a session, and the session's folder in it (the workspace folder's place in the repository). */
export interface MadeWorktree {
  readonly record: WorktreeRecord;
  readonly cwd: string;
}

/** What the Sessions view shows of a session's worktree. */
export interface WorktreeLookup {
  of(cwd: string): WorktreeRecord | undefined;
  readonly onDidChange: vscode.Event<void>;
  /** Archive / Unarchive Session of the session `key`: its worktree is committed and removed, or comes back. */
  setArchived?(key: string, archived: boolean): Promise<void>;
}

/** A message for the user, not a bug: shown as it is. */
export class WorktreeUserError extends Error {}

/** The worktrees, their records, and git. */
export class WorktreeService implements WorktreeLookup, vscode.Disposable {
  readonly git: WorktreeGit;
  readonly records: WorktreeRecords;
  /** The folder under which every worktree is made. */
  readonly root: string;
  readonly ready: Promise<void>;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;

  constructor(storage: string, readonly log: vscode.LogOutputChannel, readonly redact: (text: string) => string) {
    this.root = path.join(storage, 'worktrees');
    this.git = new WorktreeGit({ redact });
    this.records = new WorktreeRecords(path.join(this.root, 'records.json'), (problem) => log.warn(`worktrees: ${problem}`));
    this.ready = this.records.load().then(() => this._onDidChange.fire());
  }

  /** The record of the worktree `cwd` is in (the worktree itself or a folder in it), discarded ones left out. */
  of(cwd: string): WorktreeRecord | undefined {
    const dir = path.resolve(cwd);
    return this.records.worktrees().find((r) => r.state !== 'discarded' && (dir === r.path || dir.startsWith(r.path + path.sep)));
  }

  /** True when `cwd` is in a worktree of Switchboard's: its session gets no other folder as a root. */
  isIsolated(cwd: string): boolean {
    const r = this.of(cwd);
    return r !== undefined && r.state === 'active';
  }

  /** The repository of a workspace folder, and the folder's path in it; a user error when there is none. */
  async baseOf(folder: string): Promise<{ readonly info: RepoInfo; readonly sub: string }> {
    const info = await this.git.repoInfo(folder);
    if (!info) throw new WorktreeUserError(`${folder} is not in a git repository: a session in its own worktree needs one (run "git init" and make a first commit).`);
    if (!info.head) throw new WorktreeUserError(`The repository ${info.top} has no commit yet: make a first commit, then start the session again.`);
    const real = fs.realpathSync.native(folder);
    const sub = path.relative(info.top, real);
    return { info, sub: sub.startsWith('..') ? '' : sub };
  }

  /**
   * Makes a worktree of `folder`'s repository on a new branch named after `name`, from the commit checked out
   * now, and records it. The session's folder is the same place in the worktree as `folder` in the repository.
   */
  async create(folder: string, o: { readonly name: string; readonly agentId: string; readonly fanOutId?: string }): Promise<MadeWorktree> {
    await this.ready;
    const { info, sub } = await this.baseOf(folder);
    const branch = await this.git.uniqueBranch(info.top, branchFor(o.name));
    // the folder keeps the name it was made with (a branch renamed after the first prompt leaves it), so a
    // new branch of an old name may find it taken
    const wanted = path.join(this.root, repoFolderName(info.top), worktreeFolderName(branch));
    let dir = wanted;
    for (let n = 2; fs.existsSync(dir); n++) dir = `${wanted}-${n}`;
    const started = performance.now();
    await this.git.add({ top: info.top, path: dir, branch, base: info.head });
    this.log.info(`worktrees: ${branch} made at ${dir} from ${info.branch ?? info.head.slice(0, 8)} in ${Math.round(performance.now() - started)} ms`);
    const record: WorktreeRecord = {
      id: randomBytes(6).toString('hex'), top: info.top, baseBranch: info.branch ?? info.head, baseCommit: info.head,
      path: dir, branch, agentId: o.agentId, state: 'active', createdAt: Date.now(), ...(o.fanOutId ? { fanOutId: o.fanOutId } : {}),
    };
    await this.put(record);
    return { record, cwd: sub ? path.join(dir, sub) : dir };
  }

  /** Saves a changed record and tells the views. */
  async put(record: WorktreeRecord): Promise<void> {
    this.records.put(record);
    await this.records.save();
    this._onDidChange.fire();
  }

  /** Saves a changed fan-out. */
  async putFanOut(record: FanOutRecord): Promise<void> {
    this.records.putFanOut(record);
    await this.records.save();
    this._onDidChange.fire();
  }

  /** Names the branch after the session's first prompt (once: a branch the user renamed keeps its name). */
  async nameAfter(record: WorktreeRecord, text: string): Promise<WorktreeRecord> {
    const wanted = branchFor(text);
    if (!text.trim() || record.branch === wanted) return record;
    try {
      const branch = await this.git.uniqueBranch(record.top, wanted);
      await this.git.renameBranch(record.path, record.branch, branch);
      const renamed = { ...record, branch };
      await this.put(renamed);
      return renamed;
    } catch (error) {
      this.log.warn(`worktrees: the branch ${record.branch} keeps its name: ${errorText(error)}`);
      return record;
    }
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

/** The message of an error for the user: git's own words (masked) for a git failure. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
