/**
 * Checkpoints for the whole extension (docs/checkpoints.md): the store in the extension's
 * storage, the settings (`switchboard.checkpoints.*`), whether git can be used (when it cannot, the user is
 * told once, and the changed-files bar falls back to the writes made through the editor), the storage cap
 * (enforced in the background after turns) and the deletion of a session's checkpoints with the session.
 */
import * as vscode from 'vscode';
import type * as Engine from '../../checkpoints/engine';
import type { CheckpointStore } from '../../checkpoints/checkpointStore';
import type { GitCli } from '../../checkpoints/gitCli';
import type { SessionCheckpoints } from '../../checkpoints/sessionCheckpoints';
import { inert } from '../../shared/inertText';

const mb = 1024 * 1024;
/** The cap is checked at most this often (a check walks the store's files). */
const capCheckMs = 60_000;

/** The settings of checkpoints, as they are now. */
export function checkpointSettings(): { enabled: boolean; maxFileBytes: number; maxStorageBytes: number } {
  const c = vscode.workspace.getConfiguration('switchboard.checkpoints');
  const number = (key: string, fallback: number, min: number) => {
    const v = c.get<unknown>(key);
    return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : fallback;
  };
  return { enabled: c.get<unknown>('enabled') !== false, maxFileBytes: number('maxFileSizeMB', 10, 0.001) * mb, maxStorageBytes: number('maxStorageMB', 2048, 10) * mb };
}

/** The store and a session's checkpoints: their own bundle, required on first use (esbuild.mjs, `lazyModules`). */
function engine(): typeof Engine {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
  return require('../../checkpoints/engine') as typeof Engine;
}

/** The extension's checkpoints. */
export class CheckpointService {
  private _store: CheckpointStore | undefined;
  private _told = false;
  private _lastCap = 0;
  private _capRunning: Promise<unknown> | undefined;

  constructor(private readonly dir: string, private readonly log: vscode.LogOutputChannel, private readonly git?: GitCli) {}

  /** The store, built (and its code loaded) when a session first needs its checkpoints. */
  get store(): CheckpointStore {
    const log = this.log;
    this._store ??= new (engine().CheckpointStore)({
      dir: this.dir, ...(this.git ? { git: this.git } : {}),
      maxFileBytes: () => checkpointSettings().maxFileBytes,
      maxStorageBytes: () => checkpointSettings().maxStorageBytes,
      log: (level, message) => (level === 'warn' ? log.warn(message) : log.info(message)),
    });
    return this._store;
  }

  /**
   * Whether checkpoints are taken: the setting is on and git can be used. Without git the user is told once
   * (a warning notification) what that means and how to turn them on.
   */
  async available(): Promise<boolean> {
    if (!checkpointSettings().enabled) return false;
    const reason = await this.store.unavailable();
    if (reason === undefined) return true;
    if (!this._told) {
      this._told = true;
      this.log.warn(`checkpoints are off: ${reason}`);
      void vscode.window.showWarningMessage(
        inert.message`Switchboard's checkpoints are off: ${reason}. Without them, only the files an agent writes through the editor can be reviewed and undone, and messages have no Restore Checkpoint. Install git (2.25 or newer) and reload the window to turn them on.`,
      );
    }
    return false;
  }

  /** True when checkpoints are on and the session (by its key) has taken some (its record on disk; no git run). */
  hasCheckpoints(key: string): boolean {
    return checkpointSettings().enabled && this.store.manifest(key).checkpoints.length > 0;
  }

  /** The checkpoints of a session (by its key) over roots that `roots` gives as they are at each checkpoint. */
  session(key: string, roots: () => readonly string[]): SessionCheckpoints {
    return new (engine().SessionCheckpoints)(this.store, key, roots);
  }

  /** True when one of the folders has no checkpoint yet: its first one reads every file (it may take seconds). */
  async isFirst(roots: readonly string[]): Promise<boolean> {
    for (const root of roots) if ((await this.store.repo(root)).isEmpty) return true;
    return false;
  }

  /** After a turn: keeps the store under its cap, in the background, at most once a minute. */
  turnEnded(): void {
    const now = Date.now();
    if (this._capRunning || now - this._lastCap < capCheckMs) return;
    this._lastCap = now;
    this._capRunning = this.store.enforceCap()
      .catch((e: unknown) => this.log.warn(`checkpoints: could not keep the store under its cap: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => { this._capRunning = undefined; });
  }

  /** Deletes a session's checkpoints (the session was deleted); failures are logged. */
  async deleteSession(key: string): Promise<void> {
    try {
      await this.store.deleteSession(key);
    } catch (e) {
      this.log.warn(`checkpoints: could not delete the checkpoints of ${key}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
