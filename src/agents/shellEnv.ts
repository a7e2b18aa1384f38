import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The environment agents start from. VS Code launched from a desktop launcher or the Dock inherits a
 * bare PATH, so agents installed through nvm, volta, fnm, npm global, Homebrew or ~/.local/bin are
 * missing; the user's login shell knows where they are.
 */
export interface ShellEnv {
  /** The environment (PATH above all). */
  readonly env: Readonly<Record<string, string>>;
  /** `loginShell` when the shell answered, `processEnv` when this process's own environment is used. */
  readonly source: 'loginShell' | 'processEnv';
  /** The shell that was asked, when one was. */
  readonly shell?: string;
  /** Why `processEnv` is used (timeout, failure, Windows); log it, it explains "command not found". */
  readonly reason?: string;
  /** How long the resolution took. */
  readonly durationMs: number;
}

/** What a {@link ShellRunner} reports. */
export interface ShellRunResult {
  /** Everything the shell printed on stdout (UTF-8). */
  readonly stdout: string;
  /** The first few KiB of stderr, for the failure reason. */
  readonly stderr: string;
  /** Exit code; null if killed, timed out or still running when `isDone` returned true. */
  readonly code: number | null;
  /** True when the run was cut off by `timeoutMs`. */
  readonly timedOut: boolean;
  /** Set when the shell could not be started at all. */
  readonly error?: Error;
}

/** Options for one {@link ShellRunner} call. */
export interface ShellRunOptions {
  /** Environment for the shell. */
  readonly env: Readonly<Record<string, string>>;
  /** Give up (and kill the shell's process group) after this long. */
  readonly timeoutMs: number;
  /** Return early once the output so far is complete (background jobs started by rc files may keep stdout open). */
  readonly isDone: (stdout: string) => boolean;
}

/** Runs a shell; injectable so tests can fake the shell or the process layer. */
export type ShellRunner = (shell: string, args: readonly string[], options: ShellRunOptions) => Promise<ShellRunResult>;

/** Options of {@link resolveShellEnv}; every one has a production default. */
export interface ResolveShellEnvOptions {
  /** Shell to ask. Default: `$SHELL`, else the passwd entry, else `/bin/sh`. */
  readonly shell?: string;
  /** Default `process.platform`. On Windows the base environment is used as is. */
  readonly platform?: NodeJS.Platform;
  /** Default 5000 ms. */
  readonly timeoutMs?: number;
  /** Default {@link defaultShellRunner}. */
  readonly runner?: ShellRunner;
  /** Environment the shell starts from and the fallback. Default `process.env`. */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Node (or Electron, run as node) used to print the environment. Default `process.execPath`. */
  readonly nodePath?: string;
  /** Reuse the result for the same shell for the life of this process. Default true. */
  readonly cache?: boolean;
}

/** Default time the login shell gets before we fall back to the process environment. */
export const defaultShellEnvTimeoutMs = 5000;

/** Variables set only for the resolution run; removed from the result unless the base had them. */
const resolutionVars: Readonly<Record<string, string>> = {
  ELECTRON_RUN_AS_NODE: '1', // lets process.execPath (Electron inside VS Code) run as plain node
  ELECTRON_NO_ATTACH_CONSOLE: '1',
  VSCODE_RESOLVING_ENVIRONMENT: '1', // the variable dotfiles already test to skip slow setup for VS Code
  SWITCHBOARD_RESOLVING_ENVIRONMENT: '1',
};

const cache = new Map<string, Promise<ShellEnv>>();

/**
 * Resolves the user's login-shell environment: runs `$SHELL -i -l -c <print env between markers>`,
 * ignores whatever rc files print around it, and falls back to the base environment, with a
 * `reason`, on any failure or after the timeout. Never rejects. Cached per shell for the process.
 */
export function resolveShellEnv(options: ResolveShellEnvOptions = {}): Promise<ShellEnv> {
  const platform = options.platform ?? process.platform;
  const baseEnv = options.baseEnv ?? process.env;
  const shell = options.shell ?? defaultShell(baseEnv);
  if (options.cache === false) return resolveUncached(shell, platform, baseEnv, options);
  const key = `${platform}\0${shell}`;
  let result = cache.get(key);
  if (!result) {
    result = resolveUncached(shell, platform, baseEnv, options);
    cache.set(key, result);
  }
  return result;
}

/** Forgets cached results (after the user changed their dotfiles, and in tests). */
export function clearShellEnvCache(): void {
  cache.clear();
}

async function resolveUncached(
  shell: string,
  platform: NodeJS.Platform,
  baseEnv: Readonly<Record<string, string | undefined>>,
  options: ResolveShellEnvOptions,
): Promise<ShellEnv> {
  const started = Date.now();
  const fallback = (reason: string, withShell = true): ShellEnv => ({
    env: definedOnly(baseEnv), source: 'processEnv', reason, durationMs: Date.now() - started, ...(withShell ? { shell } : {}),
  });
  if (platform === 'win32') return fallback('on Windows the process environment is used as is', false);

  const timeoutMs = options.timeoutMs ?? defaultShellEnvTimeoutMs;
  const start = randomInt(2 ** 40, 2 ** 47);
  const end = randomInt(2 ** 40, 2 ** 47);
  const startMark = start.toString(16);
  const endMark = end.toString(16);
  const args = shellArgs(shell, options.nodePath ?? process.execPath, start, end);
  if (!args) return fallback(`cannot quote the node path for ${path.basename(shell)}`);

  const runner = options.runner ?? defaultShellRunner;
  const result = await runner(shell, args, {
    env: { ...definedOnly(baseEnv), ...resolutionVars },
    timeoutMs,
    isDone: (stdout) => { const at = stdout.indexOf(startMark); return at !== -1 && stdout.indexOf(endMark, at + startMark.length) !== -1; },
  }).catch((ex: unknown): ShellRunResult => ({ stdout: '', stderr: '', code: null, timedOut: false, error: ex instanceof Error ? ex : new Error(String(ex)) }));

  const parsed = parseShellEnvOutput(result.stdout, startMark, endMark);
  if (parsed?.PATH !== undefined) {
    for (const [name, value] of Object.entries(resolutionVars)) {
      if (parsed[name] === value && baseEnv[name] !== value) delete parsed[name];
    }
    return { env: parsed, source: 'loginShell', shell, durationMs: Date.now() - started };
  }
  if (result.error) return fallback(`could not run login shell ${shell}: ${result.error.message}`);
  if (result.timedOut) return fallback(`login shell ${shell} did not print its environment within ${timeoutMs} ms (a slow or interactive rc file?)`);
  const firstErr = result.stderr.split('\n').map((l) => l.trim()).find((l) => l.length > 0);
  const how = result.code === null ? 'ended' : `exited with code ${result.code}`;
  if (parsed) return fallback(`login shell ${shell} printed an environment without PATH`);
  return fallback(`login shell ${shell} ${how} without printing its environment${firstErr ? `: ${firstErr}` : ''}`);
}

function defaultShell(env: Readonly<Record<string, string | undefined>>): string {
  if (env.SHELL) return env.SHELL;
  try {
    const fromPasswd = os.userInfo().shell;
    if (fromPasswd) return fromPasswd;
  } catch {
    // no passwd entry (containers with arbitrary uids)
  }
  return '/bin/sh';
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/**
 * The argv that makes `shell` start as an interactive login shell (so .bashrc-only setups such as
 * nvm's are loaded) and run node to print its environment as JSON between two hex markers. The
 * markers are computed by the script from decimal literals, so an rc file that echoes the command
 * line cannot fake them. The script avoids quotes, spaces, `$` and `!` so it survives every shell.
 * @returns undefined when the node path cannot be quoted for that shell
 */
export function shellArgs(shell: string, nodePath: string, start: number, end: number): string[] | undefined {
  const name = path.basename(shell).replace(/\.exe$/i, '').replace(/^-/, '');
  const js = `process.stdout.write((${start}).toString(16)+JSON.stringify(process.env)+(${end}).toString(16))`;
  if (name === 'xonsh') {
    return ['-i', '-l', '-c', `import os,json,sys;sys.stdout.write(format(${start},"x")+json.dumps(dict(os.environ))+format(${end},"x"))`];
  }
  if (name === 'pwsh' || name === 'pwsh-preview' || name === 'powershell') {
    // -Login must come first; '' is the quote escape inside a single-quoted PowerShell string
    return ['-Login', '-Command', `& '${nodePath.replace(/'/g, "''")}' -e '${js}'`];
  }
  if (name === 'nu') {
    // nu single-quoted strings have no escapes at all
    return nodePath.includes("'") ? undefined : ['-l', '-i', '-c', `^'${nodePath}' -e '${js}'`];
  }
  if (name === 'fish') {
    return ['-l', '-i', '-c', `'${nodePath.replace(/[\\']/g, '\\$&')}' -e '${js}'`];
  }
  const command = `'${nodePath.replace(/'/g, `'\\''`)}' -e '${js}'`;
  // csh/tcsh accept -l only as the sole argument: interactive (reads ~/.cshrc / ~/.tcshrc) is the best we get
  if (name === 'csh' || name === 'tcsh') return ['-i', '-c', command];
  return ['-i', '-l', '-c', command];
}

/**
 * Extracts the environment printed between the markers, ignoring any noise (motd, rc output, terminal
 * escapes) before and after.
 * @returns undefined when the markers are missing or the payload is not a JSON object
 */
export function parseShellEnvOutput(stdout: string, startMark: string, endMark: string): Record<string, string> | undefined {
  const at = stdout.indexOf(startMark);
  if (at === -1) return undefined;
  const stop = stdout.indexOf(endMark, at + startMark.length);
  if (stop === -1) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stdout.slice(at + startMark.length, stop));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) if (typeof v === 'string') env[name] = v;
  return env;
}

const maxStdoutBytes = 8 * 1024 * 1024;
const maxStderrBytes = 4 * 1024;

/**
 * Runs the shell detached (its own session: no controlling terminal, so `-i` cannot stop on
 * SIGTTOU/SIGTTIN), with stdin at EOF so prompts in rc files return at once. Kills the shell's whole
 * process group on timeout.
 */
export const defaultShellRunner: ShellRunner = (shell, args, options) => new Promise<ShellRunResult>((resolve) => {
  let stdout = '';
  let stderr = '';
  let finished = false;
  let timedOut = false;
  const child = spawn(shell, [...args], { env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
  const finish = (code: number | null, error?: Error) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    child.stdout.destroy();
    child.stderr.destroy();
    resolve({ stdout, stderr, code, timedOut, ...(error ? { error } : {}) });
  };
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    finish(null);
  }, options.timeoutMs);
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    if (stdout.length < maxStdoutBytes) stdout += text;
    if (options.isDone(stdout)) finish(null);
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < maxStderrBytes) stderr += text.slice(0, maxStderrBytes - stderr.length);
  });
  child.on('error', (error) => finish(null, error));
  // 'close' waits for every holder of the pipes; rc files may start daemons that keep them open
  child.on('exit', (code) => setTimeout(() => finish(code), 100).unref());
  child.on('close', (code) => finish(code));
});
