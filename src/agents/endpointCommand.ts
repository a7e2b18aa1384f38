/**
 * Placement by an engine (docs/remote-agents.md "Placement by an engine"): a `websocket` or `http` entry without a
 * `url` runs its `command` here at every connection, and connects to the endpoint that command prints on its last
 * line. A cluster or a workspace manager creates (or finds) the sandbox the agent runs in; Switchboard only
 * connects. The command runs without a shell, with the entry's `env` and secrets, in the workspace folder.
 */
import { execFile } from 'node:child_process';
import { endpointProblem, type StreamTransport } from './agentTransport';

/** How long an engine may take to place the agent (creating a sandbox can take a while). */
export const endpointCommandTimeoutMs = 120_000;

/** What running the command needs. */
export interface EndpointCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly type: StreamTransport['type'];
  readonly cwd: string;
  /** The variables on top of this process's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Each line it writes to stderr (its progress), for the agent's log. */
  readonly onStderr?: (line: string) => void;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** The endpoint the command printed: its last non-empty stdout line, checked like a configured `url`. */
export function endpointFromOutput(type: StreamTransport['type'], stdout: string): string {
  const line = stdout.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).pop();
  if (!line) throw new Error('it printed no endpoint (its last line must be the URL to connect to)');
  const problem = endpointProblem(type, line);
  if (problem) throw new Error(`its last line is not a usable endpoint: ${problem}`);
  return line;
}

/** Runs the command and returns the endpoint it printed; rejects with a sentence that names the command. */
export function runEndpointCommand(c: EndpointCommand): Promise<string> {
  const name = [c.command, ...c.args].join(' ');
  return new Promise((resolve, reject) => {
    const child = execFile(c.command, [...c.args], {
      cwd: c.cwd, env: { ...process.env, ...c.env }, timeout: c.timeoutMs ?? endpointCommandTimeoutMs, maxBuffer: 1024 * 1024, windowsHide: true,
      ...(c.signal ? { signal: c.signal } : {}),
    }, (error, stdout, stderr) => {
      const tail = stderr.trim().split(/\r?\n/).filter(Boolean).pop();
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = code === 'ENOENT' ? 'was not found'
          : error.killed ? `did not finish within ${Math.round((c.timeoutMs ?? endpointCommandTimeoutMs) / 1000)} s`
            : typeof code === 'number' ? `exited with code ${code}` : error.message;
        reject(new Error(`The endpoint command '${name}' ${why}${tail ? `: ${tail}` : ''}`));
        return;
      }
      try {
        resolve(endpointFromOutput(c.type, stdout));
      } catch (e) {
        reject(new Error(`The endpoint command '${name}' ran, but ${(e as Error).message}`));
      }
    });
    let partial = '';
    child.stderr?.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) c.onStderr?.(l);
    });
  });
}
