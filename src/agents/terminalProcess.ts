/**
 * The process behind one agent terminal (`terminal/create`,
 * https://agentclientprotocol.com/protocol/terminals), with no VS Code in it:
 * - `command` + `args` are spawned without a shell when args are given; a command line without args that
 *   contains spaces or shell syntax runs through the user's shell (`$SHELL -c`, or `/bin/sh -c` when
 *   `$SHELL` is not a POSIX shell; `cmd.exe /d /s /c` on Windows), because claude-code-acp sends whole
 *   command lines as `command`;
 * - the agent's `env` is merged over the user's login-shell environment; `cwd` is absolute;
 * - the process leads its own process group, so a kill reaches the whole tree (SIGTERM, SIGKILL after 2 s);
 * - stdout and stderr both go into one bounded {@link TerminalOutputBuffer}, interleaved as they come;
 * - a command that cannot start behaves as in a shell: exit code 127 (126 when it is not executable) with
 *   the reason in its output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Emitter, type Event } from '../acp/events';
import { type OwnedProcessGroup, type OwnedProcesses, ownedProcesses } from './ownedProcesses';
import { defaultGraceMs, killProcessTree, listProcesses, processStartTime, terminateProcessTree } from './processTree';
import { CommandNotFoundError, getEnvValue, resolveCommand } from './resolveCommand';
import { resolveShellEnv } from './shellEnv';
import { type EnvLayer, hostOnlyVars, mergeEnv } from './spawnPlan';
import { TerminalOutputBuffer } from './terminalOutput';
import { CmdQuotingError, toCmdCommandLine } from './windowsCommandLine';

/** How a terminal's command ended (`TerminalExitStatus` of the spec). */
export interface TerminalExitStatus {
  /** Exit code; null when ended by a signal. */
  readonly exitCode: number | null;
  /** Terminating signal, e.g. `SIGKILL`; null when it exited normally. */
  readonly signal: string | null;
}

/** One `{name, value}` pair of `terminal/create`'s `env`. */
export interface TerminalEnvVariable {
  readonly name: string;
  readonly value: string;
}

/** Options of {@link TerminalProcess.start}. */
export interface TerminalProcessOptions {
  /** The command, or a whole command line when there are no args. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Variables over the base environment. */
  readonly env?: readonly TerminalEnvVariable[];
  /** Absolute working directory. */
  readonly cwd: string;
  /** The agent's `outputByteLimit`. */
  readonly outputByteLimit?: number | null;
  /** The environment to start from. Default: the login-shell environment (`resolveShellEnv()`, cached). */
  readonly baseEnv?: EnvLayer | Promise<EnvLayer>;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Time between SIGTERM and SIGKILL on kill. Default 2000 ms. */
  readonly graceMs?: number;
  /** Where the running process group is registered (POSIX). Default: {@link ownedProcesses}. */
  readonly owned?: OwnedProcesses;
}

/** How the command will be started: decided by {@link planTerminalCommand}. */
export interface TerminalCommandPlan {
  /** Program to spawn (a bare name or path still to be resolved when `viaShell` is false). */
  readonly file: string;
  readonly args: readonly string[];
  /** True when the command line runs through a shell. */
  readonly viaShell: boolean;
  /** True for cmd.exe command lines (already quoted). */
  readonly windowsVerbatimArguments: boolean;
}

/** Shells that understand the POSIX `sh` syntax agents write (bash-isms aside); others fall back to /bin/sh. */
const posixShells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ksh93', 'mksh', 'pdksh', 'ash', 'yash', 'busybox']);

/** Whitespace or a character with a meaning to the shell: such a command line needs a shell. */
const shellSyntax = /[\s|&;<>()$`\\"'*?[\]{}#~=%!^]/;

/** True when a command without args must run through a shell (it is a command line, not a program name). */
export function needsShell(command: string, platform: NodeJS.Platform = process.platform): boolean {
  // on Windows a backslash is a path separator, not shell syntax
  const text = platform === 'win32' ? command.replace(/\\/g, '/') : command;
  return shellSyntax.test(text);
}

/** The POSIX shell for command lines: `$SHELL` when it is a POSIX shell, else `/bin/sh`. */
export function posixShellFor(env: Readonly<Record<string, string | undefined>>): string {
  const shell = env.SHELL;
  if (shell && path.posix.isAbsolute(shell) && posixShells.has(path.posix.basename(shell))) return shell;
  return '/bin/sh';
}

/**
 * Decides how to start a terminal command: the program and args as given when args are given (or the
 * command is a plain program name), else the user's shell with the command line.
 */
export function planTerminalCommand(
  command: string,
  args: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): TerminalCommandPlan {
  if ((args && args.length > 0) || !needsShell(command, platform)) {
    return { file: command, args: args ?? [], viaShell: false, windowsVerbatimArguments: false };
  }
  if (platform === 'win32') {
    const comspec = getEnvValue(env, 'ComSpec', platform) ?? 'cmd.exe';
    return { file: comspec, args: ['/d', '/s', '/c', `"${command}"`], viaShell: true, windowsVerbatimArguments: true };
  }
  return { file: posixShellFor(env), args: ['-c', command], viaShell: true, windowsVerbatimArguments: false };
}

/** The command as one line for titles: `npm test --coverage`, args with spaces quoted, line breaks as spaces. */
export function displayCommand(command: string, args: readonly string[] = []): string {
  const quote = (a: string) => (a === '' || /[\s"'\\]/.test(a) ? JSON.stringify(a) : a);
  return [command, ...args.map(quote)].join(' ').replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/**
 * The environment of a terminal command: the base (host-only variables removed), `PWD` = cwd on POSIX,
 * then the agent's variables.
 */
export function terminalEnv(base: EnvLayer, agentEnv: readonly TerminalEnvVariable[] | undefined, cwd: string, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const cleaned: Record<string, string | undefined> = { ...base };
  for (const name of Object.keys(cleaned)) {
    if (hostOnlyVars.some((v) => (platform === 'win32' ? v.toUpperCase() === name.toUpperCase() : v === name))) delete cleaned[name];
  }
  const overrides: Record<string, string> = {};
  for (const { name, value } of agentEnv ?? []) overrides[name] = value;
  return mergeEnv(platform, cleaned, platform === 'win32' ? undefined : { PWD: cwd }, overrides);
}

// after 'exit', the pipes may still hold the last output: wait this long for them to close, at most
// (a background child that keeps them open must not delay the exit status for ever)
const drainMs = 200;
// after SIGKILL of the whole tree, 'exit' follows within milliseconds; never wait longer
const exitAfterKillMs = 1000;

/** A command started for an agent terminal. */
export class TerminalProcess {
  /**
   * Starts a command. Returns at once: the environment is resolved and the process spawned in the
   * background; a failure to start becomes exit code 127/126 with the reason in the output.
   */
  static start(options: TerminalProcessOptions): TerminalProcess {
    return new TerminalProcess(options);
  }

  /** The output so far (bounded by `outputByteLimit`). */
  readonly output: TerminalOutputBuffer;
  /** Every chunk of output as it comes (stdout and stderr interleaved). Listeners must not modify it. */
  readonly onData: Event<Buffer>;
  /** Fires once, when the command has ended and its output was read. */
  readonly onDidExit: Event<TerminalExitStatus>;
  /** Resolves when the process was spawned (or failed to); never rejects. */
  readonly started: Promise<void>;

  private readonly _onData = new Emitter<Buffer>();
  private readonly _onDidExit = new Emitter<TerminalExitStatus>();
  private readonly _exited: Promise<TerminalExitStatus>;
  private _resolveExited!: (status: TerminalExitStatus) => void;
  private _exit: TerminalExitStatus | undefined;
  private _child: ChildProcess | undefined;
  private _pid: number | undefined;
  private _killRequested = false;
  private _killing: Promise<void> | undefined;
  private _killGraceMs = 0;
  private _unregister: (() => void) | undefined;
  private readonly platform: NodeJS.Platform;
  private readonly graceMs: number;

  private constructor(private readonly options: TerminalProcessOptions) {
    this.platform = options.platform ?? process.platform;
    this.graceMs = Math.max(0, options.graceMs ?? defaultGraceMs);
    this.output = new TerminalOutputBuffer(options.outputByteLimit);
    this.onData = this._onData.event;
    this.onDidExit = this._onDidExit.event;
    this._exited = new Promise((resolve) => (this._resolveExited = resolve));
    this.started = this.run().catch((ex: unknown) => this.failToStart(ex));
  }

  /** OS process id, once spawned (on POSIX also the process group id). */
  get pid(): number | undefined {
    return this._pid;
  }

  /** How the command ended, once it has. */
  get exitStatus(): TerminalExitStatus | undefined {
    return this._exit;
  }

  /** Resolves when the command has ended (any number of callers, before or after the exit). */
  waitForExit(): Promise<TerminalExitStatus> {
    return this._exited;
  }

  /**
   * Kills the command and everything it started: SIGTERM to the process tree (and its process group),
   * SIGKILL after `graceMs` (default: the option) to whatever is left. After the exit, only leftovers of
   * the process group (background children) are killed. Resolves when the tree is gone, within about
   * grace + 1 s. A kill under way with a longer grace (the terminal was closed as the window closes)
   * SIGKILLs the tree once this call's `graceMs` has passed.
   */
  kill(graceMs = this.graceMs): Promise<void> {
    this._killRequested = true;
    const grace = Math.max(0, graceMs);
    if (!this._killing) {
      this._killGraceMs = grace;
      this._killing = this.doKill(grace).finally(() => {
        this._killing = undefined;
        this._unregister?.();
      });
      return this._killing;
    }
    if (grace >= this._killGraceMs) return this._killing;
    this._killGraceMs = grace;
    const hurry = new Promise((resolve) => setTimeout(resolve, grace)).then(async () => {
      const group = this.platform !== 'win32';
      if (this._pid !== undefined) await killProcessTree(this._pid, { group, platform: this.platform });
    });
    return Promise.race([this._killing, hurry]);
  }

  /** Kills the command if it still runs (without waiting) and releases the listeners once it ended. */
  dispose(): void {
    void this.kill().then(() => {
      // nothing more is read: a leftover that escaped the kill must not keep the pipes (and us) busy
      this._child?.stdout?.destroy();
      this._child?.stderr?.destroy();
    });
    void this._exited.then(() => {
      this._onData.dispose();
      this._onDidExit.dispose();
    });
  }

  private async run(): Promise<void> {
    const { command, cwd } = this.options;
    const base = await (this.options.baseEnv ?? resolveShellEnv().then((e) => e.env));
    if (this._killRequested) return this.finish({ exitCode: null, signal: 'SIGTERM' });
    const env = terminalEnv(base, this.options.env, cwd, this.platform);
    const plan = planTerminalCommand(command, this.options.args, env, this.platform);
    let file = plan.file;
    let args = plan.args;
    let verbatim = plan.windowsVerbatimArguments;
    if (!plan.viaShell) {
      // find the program as a shell would, for a clear "not found" and for Windows .cmd shims
      const resolved = await resolveCommand(plan.file, { cwd, env, platform: this.platform });
      if (this._killRequested) return this.finish({ exitCode: null, signal: 'SIGTERM' });
      file = resolved.path;
      if (this.platform === 'win32' && resolved.isBatchFile) {
        const line = toCmdCommandLine(resolved.path, plan.args, getEnvValue(env, 'ComSpec', this.platform) ?? 'cmd.exe');
        ({ file, args, windowsVerbatimArguments: verbatim } = line);
      }
    }
    const child = spawn(file, [...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // own process group on POSIX, so kill reaches the tree; on Windows `detached` would open a console
      detached: this.platform !== 'win32',
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
    });
    this._child = child;
    this._pid = child.pid;
    if (child.pid !== undefined && this.platform !== 'win32') this.register(child.pid);
    await this.watch(child);
  }

  /** Wires the child's streams and exit; resolves once it spawned or failed to. */
  private watch(child: ChildProcess): Promise<void> {
    const onChunk = (chunk: Buffer) => {
      this.output.append(chunk);
      this._onData.fire(chunk);
    };
    let failed = false;
    const stdout = child.stdout;
    const stderr = child.stderr;
    for (const s of [stdout, stderr]) {
      s?.on('data', onChunk);
      s?.on('error', () => undefined);
    }
    return new Promise<void>((resolve) => {
      child.once('spawn', () => resolve());
      child.on('error', (error) => {
        // after a successful spawn this is a failed kill(): the exit path reports what matters
        if (this._pid === undefined && !failed) {
          failed = true;
          void this.failToStart(error).then(resolve);
        }
      });
      child.once('exit', (code, signal) => {
        // exit codes are unsigned in ACP (Windows reports some as negative 32-bit values)
        const status: TerminalExitStatus = { exitCode: code === null ? null : code >>> 0, signal };
        // wait (bounded) for the pipes to deliver the last output
        const timer = setTimeout(() => this.finish(status), drainMs);
        child.once('close', () => {
          clearTimeout(timer);
          this.finish(status);
        });
      });
    });
  }

  /** The command could not be started: exit 127 (126 when not executable), the reason in the output. */
  private async failToStart(ex: unknown): Promise<void> {
    if (this._exit) return;
    const { command, cwd } = this.options;
    const code = (ex as NodeJS.ErrnoException | undefined)?.code;
    let message: string;
    let exitCode = 127;
    if (CommandNotFoundError.is(ex)) {
      message = ex.message;
      if (ex.reason === 'notExecutable') exitCode = 126;
    } else if (CmdQuotingError.is(ex)) {
      message = ex.message;
      exitCode = 126;
    } else if (code === 'ENOENT' && !(await isDirectory(cwd))) {
      message = `Cannot start '${command}': the working directory '${cwd}' does not exist.`;
    } else {
      if (code === 'EACCES' || code === 'ENOEXEC' || code === 'EPERM') exitCode = 126;
      message = `Cannot start '${command}': ${ex instanceof Error ? ex.message : String(ex)}`;
    }
    const chunk = Buffer.from(`${message}\n`, 'utf8');
    this.output.append(chunk);
    this._onData.fire(chunk);
    this.finish({ exitCode, signal: null });
  }

  private finish(status: TerminalExitStatus): void {
    if (this._exit) return;
    this._exit = status;
    this._resolveExited(status);
    this._onDidExit.fire(status);
  }

  /**
   * Registers the process group (docs/process-lifetime.md) until a kill ended it, or the
   * command exited and left nothing behind in its group.
   */
  private register(pid: number): void {
    const owned = this.options.owned ?? ownedProcesses;
    const group: OwnedProcessGroup = { pgid: pid, startTime: processStartTime(pid), kind: 'terminal', stop: (graceMs) => this.kill(graceMs) };
    owned.add(group);
    this._unregister = () => owned.remove(group);
    void this._exited.then(async () => {
      if (!(await listProcesses()).some((p) => p.pgid === pid)) this._unregister?.();
    });
  }

  private async doKill(graceMs: number): Promise<void> {
    await this.started;
    const pid = this._pid;
    if (pid === undefined) return; // never started: run() finished it as killed
    const group = this.platform !== 'win32';
    if (this._exit) {
      // the leader is gone: only end background children still in its process group. While the group
      // has members its id cannot be reused, so this never reaches an unrelated process.
      if (!group || !(await listProcesses()).some((p) => p.pgid === pid)) return;
    }
    await terminateProcessTree(pid, { group, graceMs, platform: this.platform });
    await Promise.race([this._exited, new Promise((resolve) => setTimeout(resolve, exitAfterKillMs).unref())]);
  }
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fsp.stat(p)).isDirectory();
  } catch {
    return false;
  }
}
