import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Emitter, type Event } from '../acp/events';
import type { AgentDefinition } from './agentDefinition';
import { AgentExitedError, AgentSpawnError, type AgentSpawnErrorReason } from './agentErrors';
import { type OwnedProcesses, ownedProcesses } from './ownedProcesses';
import { defaultGraceMs, killProcessTree, type ProcessInfo, processStartTime, snapshotProcessTree, terminateProcessTree } from './processTree';
import { resolveShellEnv } from './shellEnv';
import { type EnvLayer, planSpawn, type SpawnPlan } from './spawnPlan';
import { SecretMasker } from '../shared/secretMasker';
import { StderrBuffer } from './stderrBuffer';

/** Options of {@link AgentProcess.spawn}. */
export interface AgentProcessOptions {
  /** Working directory (absolute, must exist): normally the workspace folder. */
  readonly cwd: string;
  /** Host-supplied variables, merged over the base environment; the definition's `env` wins over them. */
  readonly env?: EnvLayer;
  /** Environment to start from. Default: the login-shell environment from `resolveShellEnv()` (cached). */
  readonly baseEnv?: EnvLayer;
  /** Stderr lines kept for {@link AgentProcess.stderrTail} and exit errors. Default 200. */
  readonly stderrBufferLines?: number;
  /** Stderr bytes kept over all lines (default 64 KiB); one line is truncated to a quarter of this, at most 8 KiB. */
  readonly stderrBufferBytes?: number;
  /** Time `stop()` waits after closing stdin, and again after SIGTERM. Default 2000 ms. */
  readonly graceMs?: number;
  /** Where the running process group is registered (POSIX). Default: {@link ownedProcesses}. */
  readonly owned?: OwnedProcesses;
}

/** How an agent process ended: Zed's `LoadError::Exited`, as a value. */
export interface AgentExit {
  /** Exit code, or null when killed by a signal. */
  readonly code: number | null;
  /** Terminating signal, or null. */
  readonly signal: NodeJS.Signals | null;
  /** True when `stop()`/`kill()`/`dispose()` was called first: not a crash, do not restart. */
  readonly requested: boolean;
  /** The last stderr lines, oldest first. */
  readonly stderrTail: readonly string[];
  /** The error to fail pending requests with; `reason` is `stopped` when `requested`. */
  readonly error: AgentExitedError;
}

// after 'exit', stderr may still hold the agent's last words; wait this long for its end at most
const stderrDrainMs = 200;
// after SIGKILL of the whole tree, the 'exit' event follows within milliseconds; never wait longer
const exitAfterKillMs = 1000;

/**
 * One running agent subprocess. Spawn with {@link AgentProcess.spawn}; hand {@link stdin} and
 * {@link stdout} to the NDJSON transport; stream {@link onStderr} into a log; fail pending requests
 * with `exit.error` from {@link onDidExit}/{@link exited}; end it with {@link stop}.
 *
 * On POSIX the agent leads its own process group (`detached`), so stopping it also ends the MCP
 * servers and tools it started; children that left the group are found through their parent links.
 */
export class AgentProcess {
  /**
   * Starts an agent. Resolves once the OS has started the process.
   * @throws AgentSpawnError when the cwd or command is missing, or the OS refuses (ENOENT, EACCES, EINVAL …)
   */
  static async spawn(definition: AgentDefinition, options: AgentProcessOptions): Promise<AgentProcess> {
    const baseEnv = options.baseEnv ?? (await resolveShellEnv()).env;
    const plan = await planSpawn(definition, { cwd: options.cwd, baseEnv, ...(options.env ? { env: options.env } : {}) });
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(plan.file, [...plan.args], {
        cwd: plan.cwd,
        env: plan.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // own process group on POSIX; on Windows `detached` would open a console window
        detached: process.platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: plan.windowsVerbatimArguments,
      });
    } catch (ex) {
      throw spawnError(definition, plan, ex);
    }
    if (child.pid === undefined) {
      // libuv reports ENOENT/EACCES asynchronously, with no pid
      const error = await new Promise<unknown>((resolve) => child.once('error', resolve));
      throw spawnError(definition, plan, error);
    }
    return new AgentProcess(definition, child, child.pid, plan, options);
  }

  /** The agent's stdin: the NDJSON writer's stream. */
  readonly stdin: Writable;
  /** The agent's stdout: the NDJSON reader's stream. Nothing else reads it. */
  readonly stdout: Readable;
  /** Absolute path of the executable that was started. */
  readonly commandPath: string;
  /** Fires once when the process has ended (after its last stderr line was delivered). */
  readonly onDidExit: Event<AgentExit>;
  /** Fires for every complete stderr line (ANSI escapes removed, secrets masked, capped to the byte budget). */
  readonly onStderr: Event<string>;
  /** Resolves (never rejects) when the process has ended. */
  readonly exited: Promise<AgentExit>;

  private readonly _onDidExit = new Emitter<AgentExit>();
  private readonly _onStderr = new Emitter<string>();
  private readonly stderr: StderrBuffer;
  private readonly graceMs: number;
  private resolveExited!: (exit: AgentExit) => void;
  private exitValue: AgentExit | undefined;
  private requested = false;
  private stopping: Promise<void> | undefined;
  private killing: Promise<void> | undefined;
  private cleanup: Promise<unknown> = Promise.resolve();
  private knownTree: readonly ProcessInfo[] | undefined;
  /** The grace of the stop under way: leftovers of the group after the exit get the same. */
  private stopGraceMs: number | undefined;

  private constructor(
    /** The definition this process was started from. */
    readonly definition: AgentDefinition,
    private readonly child: ChildProcessWithoutNullStreams,
    /** OS process id (on POSIX also the process group id). */
    readonly pid: number,
    plan: SpawnPlan,
    options: AgentProcessOptions,
  ) {
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.commandPath = plan.commandPath;
    this.onDidExit = this._onDidExit.event;
    this.onStderr = this._onStderr.event;
    this.graceMs = Math.max(0, options.graceMs ?? defaultGraceMs);
    // what the agent prints is masked before anyone sees it: its env values (the secrets it was given) and token shapes
    const secrets = new SecretMasker();
    secrets.add(...Object.values(definition.env), ...Object.values(options.env ?? {}).filter((v): v is string => typeof v === 'string'));
    this.stderr = new StderrBuffer({ maxLines: options.stderrBufferLines, maxBytes: options.stderrBufferBytes, mask: (line) => secrets.redact(line) });
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));

    // a write after the agent died raises EPIPE on stdin: never let that crash the extension host
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on('error', () => undefined);
    child.on('error', () => undefined); // e.g. a failed kill(); the exit path reports what matters
    const stderrEnded = new Promise<void>((resolve) => child.stderr.once('close', resolve));
    child.stderr.on('data', (chunk: Buffer) => this.fireLines(this.stderr.push(chunk)));
    child.once('exit', (code, signal) => void this.onExit(code, signal, stderrEnded));
    if (process.platform !== 'win32') this.register(options.owned ?? ownedProcesses);
  }

  /** How the process ended, once it has. */
  get exit(): AgentExit | undefined {
    return this.exitValue;
  }

  /** True once the process has ended and {@link onDidExit} has fired. */
  get hasExited(): boolean {
    return this.exitValue !== undefined;
  }

  /** The last `n` stderr lines (all kept lines when omitted), oldest first. */
  stderrTail(n?: number): string[] {
    return this.stderr.tail(n);
  }

  /**
   * Ends the agent politely, then firmly: closes stdin (ACP agents exit on EOF), waits `graceMs`
   * (default: the spawn option), SIGTERMs the whole process tree, waits `graceMs` again, then SIGKILLs
   * what is left. Idempotent: a second call joins the first, but a shorter `graceMs` than the stop under
   * way SIGKILLs the tree once 2 × that time has passed. Always resolves: within about 2 × `graceMs` + 1 s,
   * plus one more `graceMs` if children it leaves behind ignore SIGTERM.
   */
  stop(options: { readonly graceMs?: number } = {}): Promise<void> {
    const graceMs = Math.max(0, options.graceMs ?? this.graceMs);
    if (!this.stopping) {
      this.stopGraceMs = graceMs;
      this.stopping = this.doStop(graceMs);
    } else if (graceMs < (this.stopGraceMs ?? this.graceMs)) {
      // the window is closing while a slower stop (a restart) runs: do not let it take longer
      this.stopGraceMs = graceMs;
      const hurry = new Promise<void>((resolve) => setTimeout(resolve, 2 * graceMs)).then(() => this.kill());
      this.stopping = Promise.race([this.stopping, hurry]);
    }
    return this.stopping;
  }

  /** Ends the agent and its whole process tree at once (SIGKILL / `taskkill /T /F`). Always resolves, within about 1 s. */
  kill(): Promise<void> {
    this.killing ??= this.doKill();
    return this.killing;
  }

  /** Kills the process tree if it still runs (without waiting) and releases the event listeners. */
  dispose(): void {
    if (!this.exitValue) void this.kill();
    void this.exited.then(() => {
      this._onDidExit.dispose();
      this._onStderr.dispose();
    });
  }

  private async doStop(graceMs: number): Promise<void> {
    if (!this.exitValue) {
      this.requested = true;
      // remember the tree while the agent still parents it: children that left its process group
      // are otherwise lost when it exits on stdin EOF
      this.knownTree = await snapshotProcessTree(this.pid, { group: true });
      try {
        this.child.stdin.end();
      } catch {
        // already destroyed
      }
      if (!(await this.waitForExit(graceMs))) {
        await terminateProcessTree(this.pid, { group: true, graceMs, known: this.knownTree });
        await this.waitForExit(exitAfterKillMs);
      }
    }
    await this.cleanup;
  }

  private async doKill(): Promise<void> {
    if (!this.exitValue) {
      this.requested = true;
      await killProcessTree(this.pid, { group: true });
      await this.waitForExit(exitAfterKillMs);
    }
    await this.cleanup;
  }

  private async waitForExit(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([this.exited.then(() => true as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async onExit(code: number | null, signal: NodeJS.Signals | null, stderrEnded: Promise<void>): Promise<void> {
    const requested = this.requested; // a stop() during the drain below does not turn a crash into a stop
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([stderrEnded, new Promise((resolve) => (timer = setTimeout(resolve, stderrDrainMs)))]);
    clearTimeout(timer);
    this.fireLines(this.stderr.end());
    const stderrTail = this.stderr.tail();
    const error = new AgentExitedError({ agentName: this.definition.name, code, signal, stderrTail, requested });
    this.exitValue = { code, signal, requested, stderrTail, error };
    if (process.platform !== 'win32') {
      // the agent is gone; MCP servers and tools it left in its group would be orphans
      this.cleanup = terminateProcessTree(this.pid, { group: true, graceMs: this.stopGraceMs ?? this.graceMs, known: this.knownTree ?? [] });
    }
    this.resolveExited(this.exitValue);
    this._onDidExit.fire(this.exitValue);
  }

  /** Registers the process group until it and its leftovers are gone (docs/process-lifetime.md). */
  private register(owned: OwnedProcesses): void {
    const group = { pgid: this.pid, startTime: processStartTime(this.pid), kind: 'agent' as const, stop: (graceMs: number) => this.stop({ graceMs }) };
    owned.add(group);
    void this.exited.then(() => this.cleanup).finally(() => owned.remove(group));
  }

  private fireLines(lines: readonly string[]): void {
    for (const line of lines) this._onStderr.fire(line);
  }
}

const spawnReasons: Readonly<Record<string, AgentSpawnErrorReason>> = {
  ENOENT: 'commandNotFound',
  EACCES: 'commandNotExecutable',
  EPERM: 'commandNotExecutable',
  ENOEXEC: 'commandNotExecutable',
  EINVAL: 'invalidArgument',
  ERR_INVALID_ARG_VALUE: 'invalidArgument',
  ERR_INVALID_ARG_TYPE: 'invalidArgument',
};

function spawnError(definition: AgentDefinition, plan: SpawnPlan, ex: unknown): AgentSpawnError {
  const code = typeof (ex as NodeJS.ErrnoException | undefined)?.code === 'string' ? (ex as NodeJS.ErrnoException).code : undefined;
  const reason = (code && spawnReasons[code]) || 'spawnFailed';
  const detail = ex instanceof Error ? ex.message : String(ex);
  // the file was found before spawning, so ENOENT here means its #! interpreter is missing
  const why = code === 'ENOENT' ? `it exists, but its interpreter (the #! line) or the working directory was not found: ${detail}`
    : code === 'EACCES' || code === 'EPERM' ? `permission denied: ${detail}`
    : detail;
  return new AgentSpawnError(reason, `Cannot start agent '${definition.name}' ('${plan.commandPath}' in ${plan.cwd}): ${why}`, {
    agentName: definition.name, command: definition.command, cwd: plan.cwd, searchedPath: plan.searchedPath, cause: ex, ...(code ? { code } : {}),
  });
}
