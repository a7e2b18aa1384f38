import { constants as fsConstants, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { typedError } from '../shared/typedError';

/** What a {@link CommandFileSystem} knows about a candidate file. */
export type CandidateKind = 'executable' | 'notExecutable' | 'directory' | 'missing';

/** File checks used by {@link resolveCommand}; injectable so Windows lookups can be tested anywhere. */
export interface CommandFileSystem {
  /** Classifies a candidate path. */
  probe(file: string): Promise<CandidateKind>;
}

/** Options of {@link resolveCommand}. */
export interface ResolveCommandOptions {
  /** Directory that relative command paths are resolved against (the agent's cwd). */
  readonly cwd: string;
  /** Environment whose PATH (and PATHEXT on Windows) is searched. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Expansion of a leading `~`. Default `os.homedir()`. */
  readonly homeDir?: string;
  /** Default: the real file system. */
  readonly fileSystem?: CommandFileSystem;
  /** Sentence appended to a not-found message, e.g. how to install the command. */
  readonly hint?: string;
}

/** A command found on disk. */
export interface ResolvedCommand {
  /** Absolute path of the executable. */
  readonly path: string;
  /** The PATH directories searched for a bare name, in order (empty when the command was a path). */
  readonly searchedPath: readonly string[];
  /** True for Windows `.cmd`/`.bat` files, which must run through cmd.exe. */
  readonly isBatchFile: boolean;
}

/** Why {@link resolveCommand} failed. */
export type CommandNotFoundErrorReason = 'notFound' | 'notExecutable';

/** The command could not be found, or what was found cannot be executed. The message names both. */
export class CommandNotFoundError extends typedError('CommandNotFoundError') {

  /**
   * @param command the command as given
   * @param searchedPath the PATH directories searched (empty for a path)
   * @param candidate for `notExecutable`: the file that was found
   */
  constructor(
    readonly reason: CommandNotFoundErrorReason,
    message: string,
    readonly command: string,
    readonly searchedPath: readonly string[],
    readonly candidate?: string,
  ) {
    super(message);
  }
}

/** Reads an environment variable, case-insensitively on Windows (where `Path` is common). */
export function getEnvValue(env: Readonly<Record<string, string | undefined>>, name: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const upper = name.toUpperCase();
  for (const key of Object.keys(env)) if (key.toUpperCase() === upper && env[key] !== undefined) return env[key];
  return undefined;
}

/**
 * The absolute PATH directories, de-duplicated. Empty and relative entries are dropped: they would
 * mean "search the workspace", which lets a cloned repository shadow a real program.
 */
export function pathDirectories(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string[] {
  const value = getEnvValue(env, 'PATH', platform) ?? '';
  const delimiter = platform === 'win32' ? ';' : ':';
  const p = platform === 'win32' ? path.win32 : path.posix;
  const dirs = value.split(delimiter).map((d) => (platform === 'win32' ? d.replace(/^"(.*)"$/, '$1') : d)).filter((d) => d.length > 0 && p.isAbsolute(d));
  return [...new Set(dirs)];
}

/** True when `file` ends in `.cmd` or `.bat` (case-insensitive). */
export function isBatchFile(file: string): boolean {
  return /\.(?:cmd|bat)$/i.test(file);
}

/**
 * Finds the executable for `command` the way a shell would, but without ever searching the working
 * directory for a bare name (a workspace must not be able to plant `npx.cmd`):
 * - a path (contains a separator) is resolved against `cwd`, a leading `~/` against the home directory;
 * - a bare name is looked up in each PATH directory in order;
 * - on Windows each PATHEXT extension is tried (`npx` → `npx.cmd`) unless the name already has one.
 * @throws CommandNotFoundError naming the command and listing the directories searched
 */
export async function resolveCommand(command: string, options: ResolveCommandOptions): Promise<ResolvedCommand> {
  const platform = options.platform ?? process.platform;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const fileSystem = options.fileSystem ?? nodeFileSystem(platform);
  const extensions = platform === 'win32' ? windowsExtensions(command, options.env) : [''];
  const isPath = command.includes('/') || (platform === 'win32' && command.includes('\\'));

  if (isPath) {
    const expanded = /^~[\\/]/.test(command) ? p.join(options.homeDir ?? os.homedir(), command.slice(1)) : command;
    const absolute = p.resolve(options.cwd, expanded);
    const found = await firstExecutable(fileSystem, extensions.map((ext) => absolute + ext));
    if (found.path) return { path: found.path, searchedPath: [], isBatchFile: isBatchFile(found.path) };
    const shown = absolute === command ? `'${command}'` : `'${command}' (${absolute})`;
    if (found.blocked) throw notExecutable(command, [], found.blocked.path, found.blocked.kind, platform);
    throw new CommandNotFoundError('notFound', `Cannot find ${shown}: no such file.${options.hint ? ` ${options.hint}` : ''}`, command, []);
  }

  const searchedPath = pathDirectories(options.env, platform);
  let blocked: { path: string; kind: CandidateKind } | undefined;
  for (const dir of searchedPath) {
    const found = await firstExecutable(fileSystem, extensions.map((ext) => p.join(dir, command + ext)));
    if (found.path) return { path: found.path, searchedPath, isBatchFile: isBatchFile(found.path) };
    blocked ??= found.blocked;
  }
  if (blocked) throw notExecutable(command, searchedPath, blocked.path, blocked.kind, platform);
  const where = searchedPath.length > 0 ? `Searched: ${searchedPath.join(platform === 'win32' ? '; ' : ', ')}.` : 'PATH is empty.';
  const tried = platform === 'win32' && extensions.length > 1 ? ` (tried ${extensions.map((e) => e.toLowerCase()).join(', ')})` : '';
  throw new CommandNotFoundError(
    'notFound',
    `Cannot find '${command}' on PATH${tried}. ${where}${options.hint ? ` ${options.hint}` : ''}`,
    command,
    searchedPath,
  );
}

function notExecutable(command: string, searchedPath: readonly string[], file: string, kind: CandidateKind, platform: NodeJS.Platform): CommandNotFoundError {
  const why = kind === 'directory' ? 'is a directory, not a program' : platform === 'win32' ? 'cannot be executed' : 'is not executable (chmod +x it)';
  return new CommandNotFoundError('notExecutable', `Found '${file}' for '${command}', but it ${why}.`, command, searchedPath, file);
}

async function firstExecutable(
  fileSystem: CommandFileSystem,
  candidates: readonly string[],
): Promise<{ path?: string; blocked?: { path: string; kind: CandidateKind } }> {
  let blocked: { path: string; kind: CandidateKind } | undefined;
  for (const candidate of candidates) {
    const kind = await fileSystem.probe(candidate);
    if (kind === 'executable') return { path: candidate };
    if (kind !== 'missing') blocked ??= { path: candidate, kind };
  }
  return blocked ? { blocked } : {};
}

/** PATHEXT candidates: the name as given when it already has an executable extension, else each PATHEXT entry. */
function windowsExtensions(command: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const pathext = (getEnvValue(env, 'PATHEXT', 'win32') ?? '.COM;.EXE;.BAT;.CMD')
    .split(';').map((e) => e.trim().toLowerCase()).filter((e) => e.startsWith('.'));
  const ext = path.win32.extname(command).toLowerCase();
  return ext && pathext.includes(ext) ? [''] : pathext;
}

/** The real file system: `executable` means a file this process may execute (any file on Windows). */
export function nodeFileSystem(platform: NodeJS.Platform = process.platform): CommandFileSystem {
  return {
    async probe(file) {
      try {
        const stat = await fsp.stat(file);
        if (stat.isDirectory()) return 'directory';
        if (!stat.isFile()) return 'notExecutable';
        if (platform === 'win32') return 'executable';
        await fsp.access(file, fsConstants.X_OK);
        return 'executable';
      } catch (ex) {
        const code = (ex as NodeJS.ErrnoException).code;
        return code === 'EACCES' || code === 'EPERM' ? 'notExecutable' : 'missing';
      }
    },
  };
}
