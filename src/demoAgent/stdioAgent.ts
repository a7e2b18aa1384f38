import os from 'node:os';
import { Readable, Writable } from 'node:stream';
import { resolveCommand } from '../agents/resolveCommand';
import type { AgentIo } from './agentIo';
import type { Scenario } from './scenario';
import { runScriptedAgent } from './scriptedAgent';

/** The `AgentIo` of this process: stdin/stdout/stderr, its environment, exit and kill; `nodeOnPath` says whether `node` is on its PATH. */
export function stdioAgentIo(nodeOnPath = false): AgentIo {
  return {
    ...(nodeOnPath ? { nodeCommand: 'node' } : {}),
    input: Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    output: Writable.toWeb(process.stdout),
    writeStderr: (text) => {
      process.stderr.write(text);
    },
    env: process.env,
    cwd: process.cwd(),
    execPath: process.execPath,
    exit: (how) => {
      if ('code' in how) {
        process.exit(how.code);
      }
      const number = (os.constants.signals as Record<string, number | undefined>)[how.signal];
      try {
        process.kill(process.pid, how.signal);
      } catch {
        process.exit(1);
      }
      // Only reached for a signal that does not end the process by default: exit as a shell reports it.
      process.exit(128 + (number ?? 0));
    },
  };
}

/**
 * Runs a scripted agent on this process's stdio and exits when the client closes stdin. Unexpected
 * errors are logged to stderr, never fatal: a test agent must not die unless a scenario says so.
 * Works under node and under Electron with ELECTRON_RUN_AS_NODE=1. `wrap` may put something between the
 * engine and stdio (the test agents record the client's traffic there).
 */
export async function runStdioAgent(scenario: Scenario, wrap: (io: AgentIo) => AgentIo = (io) => io): Promise<void> {
  const report = (what: string) => (error: unknown): void => {
    process.stderr.write(`[${scenario.name}] ${what}: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  };
  process.on('unhandledRejection', report('unhandled rejection'));
  process.on('uncaughtException', report('uncaught exception'));
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    report('stdout')(error);
    if (error.code === 'EPIPE') {
      process.exit(0);
    }
  });
  // the client is gone (its end of stderr closed, as sshd does when an ssh connection drops): reporting that on
  // stderr would fail again, in a loop
  process.stderr.on('error', () => process.exit(0));
  // the client closed stdin: the agent ends (below, once the connection has closed), and within a second also in
  // the middle of a turn that waits (docs/remote-agents.md: an agent elsewhere is ended only this way)
  process.stdin.once('end', () => setTimeout(() => process.exit(0), 1000).unref());
  // a terminal the client starts gets the login shell's PATH (src/agents/shellEnv.ts), which in practice holds
  // the editor's, ours: `node` found here runs there too; else the terminal is given this executable's path
  const nodeOnPath = await resolveCommand('node', { cwd: process.cwd(), env: process.env }).then(() => true, () => false);
  await runScriptedAgent(scenario, wrap(stdioAgentIo(nodeOnPath)));
  process.exit(0);
}
