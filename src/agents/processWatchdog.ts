/**
 * The extension host's side of the watchdog (`watchdog.ts`): one small Node process per extension host,
 * started from this process's own executable (`ELECTRON_RUN_AS_NODE=1` makes VS Code's Electron a plain
 * Node) and `detached`, so it leads its own process group and survives whatever ends the host's. It
 * learns every process group in {@link ownedProcesses} through a pipe to its stdin; when the host dies
 * before it stopped its agents (a reload that does not wait, SIGKILL, a crash), the pipe closes and the
 * watchdog ends them. On Windows there is no watchdog (no process groups to signal; Windows ends a
 * console child with its job or leaves it, as before). See docs/process-lifetime.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { type OwnedProcesses, ownedProcesses } from './ownedProcesses';

/** Options of {@link ProcessWatchdog.start}. */
export interface ProcessWatchdogOptions {
  /** The bundled watchdog script (dist/agents/watchdog.js). */
  readonly scriptPath: string;
  /** The Node (or Electron) to run it with. Default `process.execPath`. */
  readonly execPath?: string;
  /** The groups to guard. Default {@link ownedProcesses}. */
  readonly owned?: OwnedProcesses;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Told when the watchdog process ended on its own (it is restarted, a few times at most). */
  readonly onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

// a watchdog that keeps dying (a broken script) is not restarted for ever
const maxStarts = 4;

/** The running watchdog of this extension host. */
export class ProcessWatchdog {
  /** Starts the watchdog (its process once a first group is registered); undefined on Windows. */
  static start(options: ProcessWatchdogOptions): ProcessWatchdog | undefined {
    if ((options.platform ?? process.platform) === 'win32') return undefined;
    return new ProcessWatchdog(options);
  }

  private child: ChildProcess | undefined;
  private starts = 0;
  private disposed = false;
  private subscription: { dispose(): void } | undefined;
  private waiting: { dispose(): void } | undefined;

  private constructor(private readonly options: ProcessWatchdogOptions) {
    // started with the first process group it must guard: an activation that starts no agent or terminal
    // command (a restored read-only chat, the Sessions view) spawns nothing. After the current notification,
    // so that its own subscription replays that group once.
    this.waiting = (options.owned ?? ownedProcesses).observe({
      added: () => queueMicrotask(() => this.firstGroup()),
      removed: () => undefined,
    });
  }

  private firstGroup(): void {
    this.waiting?.dispose();
    this.waiting = undefined;
    if (!this.child && !this.disposed) this.launch();
  }

  /** The watchdog's pid while it runs. */
  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  /**
   * Closes the pipe: the watchdog ends what is still registered (normally nothing: call this after the
   * agents were stopped) and exits.
   */
  dispose(): void {
    this.disposed = true;
    this.waiting?.dispose();
    this.subscription?.dispose();
    this.child?.stdin?.end();
  }

  private launch(): void {
    this.starts++;
    const child = spawn(this.options.execPath ?? process.execPath, [this.options.scriptPath, String(process.pid)], {
      cwd: '/',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['pipe', 'ignore', 'ignore'],
      // its own process group: whatever signals the host's group does not reach it
      detached: true,
    });
    this.child = child;
    child.on('error', () => undefined); // reported through 'exit'
    child.stdin?.on('error', () => undefined); // EPIPE once it died
    // neither the process nor the pipe keeps the extension host alive
    child.unref();
    (child.stdin as unknown as Socket | null)?.unref?.();
    const owned = this.options.owned ?? ownedProcesses;
    this.subscription = owned.observe({
      added: (g) => this.write(child, `+${g.pgid} ${g.pgid} ${g.startTime ?? '-'}`),
      removed: (pgid) => this.write(child, `-${pgid}`),
    });
    child.once('exit', (code, signal) => {
      if (this.disposed || this.child !== child) return;
      this.subscription?.dispose();
      this.options.onExit?.(code, signal);
      if (this.starts < maxStarts) this.launch();
    });
  }

  private write(child: ChildProcess, line: string): void {
    if (child.stdin?.writable) child.stdin.write(`${line}\n`);
  }
}
