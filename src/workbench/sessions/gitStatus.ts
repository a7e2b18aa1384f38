/**
 * The current branch and the number of uncommitted changes of a session's folder, for the Sessions view
 * (docs/sessions.md "A home for all sessions"). From VS Code's built-in Git extension (`vscode.git`, API
 * version 1) when it has a repository for the folder; else from the `git` CLI (`git status --porcelain --branch`,
 * through execFile, never a shell). Cheap and cached: a folder is asked once, then again only on
 * {@link GitStatus.invalidate} (the window got the focus, a turn ended, the Git extension saw its repository
 * change); never in a loop.
 * A folder that is not in a repository (or without git) has no status.
 */
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';

/** What the view shows of a folder in a git repository. */
export interface FolderGitStatus {
  /** The branch, or a short commit id when HEAD is detached. */
  readonly branch: string;
  /** Files with uncommitted changes (staged, unstaged and untracked). */
  readonly changes: number;
}

/** The part of the Git extension's API (vscode.git, `getAPI(1)`) that is used here. */
interface GitApi {
  getRepository(uri: vscode.Uri): GitRepository | null;
}
interface GitRepository {
  readonly state: {
    readonly HEAD?: { readonly name?: string; readonly commit?: string };
    readonly workingTreeChanges: readonly unknown[];
    readonly indexChanges: readonly unknown[];
    readonly mergeChanges?: readonly unknown[];
    readonly untrackedChanges?: readonly unknown[];
    readonly onDidChange: vscode.Event<void>;
  };
}

/** One folder's entry in the cache. */
interface Entry {
  value: FolderGitStatus | undefined;
  at: number;
  pending?: Promise<void>;
  /** Set by {@link GitStatus.invalidate} while a read runs: the next read asks again. */
  stale?: boolean;
}

/** The folders' git status, cached; fires when a value changed. */
export class GitStatus implements vscode.Disposable {
  private readonly _cache = new Map<string, Entry>();
  private readonly _watched = new Set<GitRepository>();
  private readonly _disposables: vscode.Disposable[] = [];
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a folder's status changed. */
  readonly onDidChange = this._onDidChange.event;
  private _api: Promise<GitApi | undefined> | undefined;
  private _timer: NodeJS.Timeout | undefined;

  constructor(private readonly log: { warn(message: string): void }) {
    this._disposables.push(this._onDidChange, vscode.window.onDidChangeWindowState((s) => { if (s.focused) this.invalidate(); }));
  }

  /** The folder's status as last known (undefined: none, or not known yet); the first read asks. */
  get(folder: string): FolderGitStatus | undefined {
    let e = this._cache.get(folder);
    if (!e) {
      e = { value: undefined, at: 0 };
      this._cache.set(folder, e);
    }
    if ((e.stale || e.at === 0) && !e.pending) this.refresh(folder, e);
    return e.value;
  }

  /** Asks again for every folder read before (the window got the focus, a turn ended); fires only if one changed. */
  invalidate(): void {
    // coalesced: a repository's state changes at every write of a busy agent
    this._timer ??= setTimeout(() => {
      this._timer = undefined;
      for (const [folder, e] of this._cache) {
        if (e.pending) e.stale = true; // asked again at the next read
        else this.refresh(folder, e);
      }
    }, 500);
  }

  private refresh(folder: string, e: Entry): void {
    e.stale = false;
    e.at = Date.now();
    e.pending = this.read(folder).then((value) => {
      const changed = JSON.stringify(value) !== JSON.stringify(e.value);
      e.value = value;
      if (changed) this._onDidChange.fire();
    }, (error: unknown) => this.log.warn(`git status of ${folder}: ${error instanceof Error ? error.message : String(error)}`)).finally(() => { e.pending = undefined; });
  }

  private async read(folder: string): Promise<FolderGitStatus | undefined> {
    const repo = (await this.api())?.getRepository(vscode.Uri.file(folder));
    if (repo) {
      this.watch(repo);
      const s = repo.state;
      const branch = s.HEAD?.name ?? s.HEAD?.commit?.slice(0, 8);
      const changes = s.workingTreeChanges.length + s.indexChanges.length + (s.mergeChanges?.length ?? 0) + (s.untrackedChanges?.length ?? 0);
      if (branch) return { branch, changes };
    }
    return gitCliStatus(folder);
  }

  /** The Git extension tells when a repository's state changed: the cached values are read again then. */
  private watch(repo: GitRepository): void {
    if (this._watched.has(repo)) return;
    this._watched.add(repo);
    this._disposables.push(repo.state.onDidChange(() => this.invalidate()));
  }

  private api(): Promise<GitApi | undefined> {
    this._api ??= (async () => {
      const ext = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
      if (!ext) return undefined;
      try {
        return (ext.isActive ? ext.exports : await ext.activate()).getAPI(1);
      } catch {
        return undefined; // disabled (git.enabled: false) or failed: the CLI answers
      }
    })();
    return this._api;
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

/**
 * `git status --porcelain --branch` of a folder: its branch and changed files; undefined outside a repository.
 * `--no-optional-locks`: a status may otherwise refresh the user's index and write it (and hold its lock while
 * the user's own git runs).
 */
export function gitCliStatus(folder: string): Promise<FolderGitStatus | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['--no-optional-locks', '-C', folder, 'status', '--porcelain=v1', '--branch', '--untracked-files=normal'], { timeout: 5000, maxBuffer: 4 * 1024 * 1024, windowsHide: true }, (error, stdout) => {
      resolve(error ? undefined : parsePorcelainStatus(stdout));
    });
  });
}

/** Parses `git status --porcelain=v1 --branch`: `## main...origin/main [ahead 1]`, then one line per changed file. */
export function parsePorcelainStatus(stdout: string): FolderGitStatus | undefined {
  const lines = stdout.split('\n').filter((l) => l.length > 0);
  const head = lines[0];
  if (!head?.startsWith('## ')) return undefined;
  const rest = head.slice(3);
  const branch = rest.startsWith('No commits yet on ') ? rest.slice('No commits yet on '.length)
    : rest.startsWith('HEAD (no branch)') ? 'detached HEAD'
    : rest.split('...')[0]?.split(' ')[0] ?? rest;
  return { branch, changes: lines.length - 1 };
}
