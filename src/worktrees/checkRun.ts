/**
 * Runs the user's check command (`npm test`, `make check`…) in a worktree. It is the user's own command
 * line, so it runs in a shell, in its own process group, killed as a whole (with whatever it started) on
 * timeout or abort. stdout and stderr are kept together, in the order they came, and only their tail (the
 * part that says what failed). Inherited variables that would point git at another repository are dropped
 * (worktreeGit.ts `userGitEnv`).
 */
import { execFile, spawn } from 'node:child_process';
import * as os from 'node:os';
import { userGitEnv } from './worktreeGit';

/** What a check run came to. */
export interface CheckResult {
  /** The exit code; 128 + the signal's number when a signal ended it; -1 when it could not start. */
  readonly exitCode: number;
  readonly durationMs: number;
  /** The last `maxOutput` bytes of stdout and stderr, interleaved. */
  readonly output: string;
  readonly timedOut: boolean;
}

/** After SIGTERM, the time a check gets to end before SIGKILL. */
const graceMs = 2_000;

/** Runs `command` in a shell in `cwd`. Never rejects: a check that cannot start is a failed check. */
export function runCheck(command: string, cwd: string, o: { timeoutMs?: number; signal?: AbortSignal; maxOutput?: number } = {}): Promise<CheckResult> {
  const timeoutMs = o.timeoutMs ?? 10 * 60_000;
  const maxOutput = o.maxOutput ?? 8 * 1024;
  const started = performance.now();
  const tail = new Tail(maxOutput);
  const unix = process.platform !== 'win32';
  return new Promise((resolve) => {
    let timedOut = false;
    let done = false;
    const env = userGitEnv();
    delete env.LC_ALL; // the user's locale, not git's C: the check's messages are for them
    if (process.env.LC_ALL !== undefined) env.LC_ALL = process.env.LC_ALL;
    const child = spawn(command, { shell: true, cwd, detached: unix, stdio: ['ignore', 'pipe', 'pipe'], env, windowsHide: true });
    const kill = (signal: NodeJS.Signals) => {
      if (done || child.pid === undefined) return;
      try {
        if (unix) process.kill(-child.pid, signal);
        else execFile('taskkill', ['/pid', String(child.pid), '/t', '/f'], () => undefined);
      } catch {
        // the group is gone already
      }
    };
    let forceTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      kill('SIGTERM');
      forceTimer ??= setTimeout(() => kill('SIGKILL'), graceMs);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, timeoutMs);
    const onAbort = () => stop();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) stop();
    child.stdout.on('data', (b: Buffer) => tail.push(b));
    child.stderr.on('data', (b: Buffer) => tail.push(b));
    const finish = (exitCode: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (forceTimer) clearTimeout(forceTimer);
      o.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode, durationMs: performance.now() - started, output: tail.text(), timedOut });
    };
    child.on('error', (error) => {
      tail.push(Buffer.from(`${error.message}\n`));
      finish(-1);
    });
    // the shell's exit ends the check: what it left running in its group is killed (it would hold the pipes
    // open), and 'close' comes once the pipes are read to their end
    let exitCode = -1;
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : -1);
      if (unix) kill('SIGKILL');
    });
    child.on('close', () => finish(exitCode));
  });
}

/** The last `max` bytes of what was pushed. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0].length >= this.max) this.size -= this.chunks.shift()?.length ?? 0;
  }

  text(): string {
    let all = Buffer.concat(this.chunks);
    if (all.length > this.max) {
      all = all.subarray(all.length - this.max);
      let i = 0;
      while (i < all.length && i < 3 && (all[i] & 0xc0) === 0x80) i++; // not half a character
      all = all.subarray(i);
    }
    return all.toString('utf8');
  }
}
