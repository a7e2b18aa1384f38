import * as path from 'node:path';
import type { AgentDefinition } from './agentDefinition';
import { AgentSpawnError } from './agentErrors';
import { CommandNotFoundError, type CommandFileSystem, getEnvValue, nodeFileSystem, resolveCommand } from './resolveCommand';
import { CmdQuotingError, toCmdCommandLine } from './windowsCommandLine';

/** An environment layer; `undefined` values are skipped (so `process.env` fits). */
export type EnvLayer = Readonly<Record<string, string | undefined>>;

/** Everything `child_process.spawn` needs to start one agent, decided before anything runs. */
export interface SpawnPlan {
  /** Program to spawn: the resolved executable, or cmd.exe for a Windows batch file. */
  readonly file: string;
  /** Its arguments (already escaped for cmd.exe when {@link windowsVerbatimArguments}). */
  readonly args: readonly string[];
  /** Absolute, existing working directory. */
  readonly cwd: string;
  /** The merged environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Absolute path of the agent's executable (the batch file itself when run through cmd.exe). */
  readonly commandPath: string;
  /** PATH directories searched to find a bare command name. */
  readonly searchedPath: readonly string[];
  /** True when the arguments must be passed to libuv verbatim (cmd.exe). */
  readonly windowsVerbatimArguments: boolean;
}

/** Inputs of {@link planSpawn}. */
export interface SpawnPlanOptions {
  /** Working directory; must be absolute and exist. */
  readonly cwd: string;
  /** The environment to start from: the login-shell environment. */
  readonly baseEnv: EnvLayer;
  /** Host-supplied variables over the base; the definition's own `env` wins over these. */
  readonly env?: EnvLayer;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** File checks for the cwd and the command lookup. Default: the real file system. */
  readonly fileSystem?: CommandFileSystem;
}

/**
 * Variables removed from the base environment: the extension host runs Electron as node
 * (ELECTRON_RUN_AS_NODE would turn any Electron app an agent starts into node), and the shell's own
 * bookkeeping describes the shell's directory, not the agent's.
 */
export const hostOnlyVars: readonly string[] = ['ELECTRON_RUN_AS_NODE', 'ELECTRON_NO_ATTACH_CONSOLE', 'VSCODE_RESOLVING_ENVIRONMENT', 'SWITCHBOARD_RESOLVING_ENVIRONMENT', 'PWD', 'OLDPWD', '_'];

/**
 * Merges environment layers, later layers winning. On Windows names are case-insensitive: a later
 * `PATH` replaces an earlier `Path` and keeps the first spelling, so the child never sees both.
 */
export function mergeEnv(platform: NodeJS.Platform, ...layers: readonly (EnvLayer | undefined)[]): Record<string, string> {
  const out: Record<string, string> = {};
  const spelling = new Map<string, string>();
  for (const layer of layers) {
    if (!layer) continue;
    for (const [name, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      if (platform !== 'win32') {
        out[name] = value;
        continue;
      }
      const key = name.toUpperCase();
      const existing = spelling.get(key) ?? name;
      spelling.set(key, existing);
      out[existing] = value;
    }
  }
  return out;
}

/** Installation hints for commands users commonly configure. */
const installHints: Readonly<Record<string, string>> = {
  npx: 'npx comes with Node.js: install it from https://nodejs.org (with nvm, volta or fnm, make sure your login shell puts it on PATH)',
  node: 'Install Node.js from https://nodejs.org (with nvm, volta or fnm, make sure your login shell puts it on PATH)',
  'claude-code-acp': 'Install it with `npm i -g @zed-industries/claude-code-acp`',
  gemini: 'Install it with `npm i -g @google/gemini-cli`',
  codex: 'Install it with `npm i -g @openai/codex`',
  'codex-acp': 'Install it with `npm i -g @zed-industries/codex-acp`',
  opencode: 'Install it with `npm i -g opencode-ai`',
  qwen: 'Install it with `npm i -g @qwen-code/qwen-code`',
};

/** The "what to do" sentence for a command that was not found. */
export function installHint(command: string): string {
  const name = path.basename(command).replace(/\.(?:cmd|bat|exe)$/i, '');
  return `${installHints[name] ?? 'Install it'}, or set "command" to its absolute path in the switchboard.agents setting.`;
}

async function checkCwd(definition: AgentDefinition, cwd: string, platform: NodeJS.Platform, fileSystem: CommandFileSystem): Promise<void> {
  const fail = (why: string) =>
    new AgentSpawnError('cwdNotFound', `Cannot start agent '${definition.name}': its working directory '${cwd}' ${why}`, {
      agentName: definition.name, command: definition.command, cwd,
    });
  if (!(platform === 'win32' ? path.win32 : path.posix).isAbsolute(cwd)) throw fail('is not an absolute path.');
  const kind = await fileSystem.probe(cwd);
  if (kind === 'missing') throw fail('does not exist. Open an existing folder, or check the folder the agent is configured to run in.');
  if (kind !== 'directory') throw fail('is not an accessible directory.');
}

/**
 * Decides how to spawn `definition`: checks the cwd, merges the environment (base, then host layer,
 * then the definition's env), resolves the command on the merged PATH and, for a Windows batch file,
 * wraps it in a safely quoted cmd.exe call.
 * @throws AgentSpawnError (`cwdNotFound`, `commandNotFound`, `commandNotExecutable`, `invalidArgument`)
 */
export async function planSpawn(definition: AgentDefinition, options: SpawnPlanOptions): Promise<SpawnPlan> {
  const platform = options.platform ?? process.platform;
  const { cwd } = options;
  const fileSystem = options.fileSystem ?? nodeFileSystem(platform);
  await checkCwd(definition, cwd, platform, fileSystem);

  const base: Record<string, string | undefined> = { ...options.baseEnv };
  for (const name of Object.keys(base)) {
    if (hostOnlyVars.some((v) => (platform === 'win32' ? v.toUpperCase() === name.toUpperCase() : v === name))) delete base[name];
  }
  const env = mergeEnv(platform, base, platform === 'win32' ? undefined : { PWD: cwd }, options.env, definition.env);

  const details = { agentName: definition.name, command: definition.command, cwd };
  let resolved;
  try {
    resolved = await resolveCommand(definition.command, { cwd, env, platform, fileSystem, hint: installHint(definition.command) });
  } catch (ex) {
    if (!CommandNotFoundError.is(ex)) throw ex;
    const reason = ex.reason === 'notFound' ? 'commandNotFound' : 'commandNotExecutable';
    throw new AgentSpawnError(reason, `Cannot start agent '${definition.name}': ${ex.message}`, { ...details, searchedPath: ex.searchedPath, cause: ex });
  }

  if (platform === 'win32' && resolved.isBatchFile) {
    try {
      const line = toCmdCommandLine(resolved.path, definition.args, getEnvValue(env, 'ComSpec', platform) ?? 'cmd.exe');
      return { ...line, cwd, env, commandPath: resolved.path, searchedPath: resolved.searchedPath };
    } catch (ex) {
      if (!CmdQuotingError.is(ex)) throw ex;
      throw new AgentSpawnError('invalidArgument', `Cannot start agent '${definition.name}': ${ex.message}`, { ...details, searchedPath: resolved.searchedPath, cause: ex });
    }
  }
  return { file: resolved.path, args: definition.args, cwd, env, commandPath: resolved.path, searchedPath: resolved.searchedPath, windowsVerbatimArguments: false };
}
