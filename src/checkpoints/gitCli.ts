/**
 * The `git` command line, run for a shadow repository (docs/checkpoints.md): `execFile`,
 * never a shell; the repository, its work tree and its index are named by `GIT_DIR`, `GIT_WORK_TREE` and
 * `GIT_INDEX_FILE`, so git never looks for (or touches) the `.git` of the folder it reads. Every other
 * `GIT_*` variable of the extension host is dropped (one naming another object store or config would
 * redirect us), and the options that could run the user's programs or change the bytes are fixed with `-c`:
 * no hooks, no fsmonitor, no signing, no line-ending conversion, no automatic gc.
 */
import { execFile } from 'node:child_process';

/** The three paths git is told for one shadow repository. */
export interface RepoPaths {
  /** The shadow repository (`GIT_DIR`), in the extension's storage. */
  readonly gitDir: string;
  /** The folder it takes snapshots of (`GIT_WORK_TREE`). */
  readonly workTree: string;
  /** Its own index (`GIT_INDEX_FILE`): git's stat cache, so a snapshot re-reads only changed files. */
  readonly indexFile: string;
}

/** What a git run printed. */
export interface GitResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly code: number;
}

/** A git run that failed: its arguments and what it printed on stderr. */
export class GitError extends Error {
  constructor(readonly args: readonly string[], readonly code: number | string, readonly stderr: string) {
    super(`git ${shownArgs(args).slice(0, 3).join(' ')} failed (${code}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`);
    this.name = 'GitError';
  }
}

/**
 * Options that hold for every run, whatever the user's global config says: hooks (`core.hooksPath`) and
 * fsmonitor would run the user's programs; signing would ask for a passphrase; `autocrlf` would change
 * bytes; gc must not run on its own (pruning is ours, see checkpointStore.ts); `safe.directory` is needed
 * when the folder belongs to another user (a container, a mounted share).
 */
export const fixedConfig: readonly string[] = [
  'core.hooksPath=/dev/null', 'core.fsmonitor=false', 'core.autocrlf=false', 'core.safecrlf=false', 'core.bare=false',
  'core.quotePath=false', 'core.logAllRefUpdates=false', 'core.longpaths=true', 'core.sparseCheckout=false',
  'commit.gpgSign=false', 'user.name=Switchboard', 'user.email=checkpoints@switchboard.invalid',
  'gc.auto=0', 'maintenance.auto=false', 'safe.directory=*',
  'advice.addEmbeddedRepo=false', 'advice.addIgnoredFile=false',
].flatMap((c) => ['-c', c]);

/** The oldest git with `--pathspec-from-file` (2.25, January 2020). */
const minVersion = [2, 25] as const;

/** Runs git for shadow repositories. */
export class GitCli {
  constructor(
    /** The git executable (found on `PATH` when it has no folder). */
    readonly gitPath = 'git',
    /** A run that takes longer is killed (a hung git must never hang a turn). */
    private readonly timeoutMs = 120_000,
  ) {}

  /**
   * Finds out whether this git can be used: it runs, and is 2.25 or newer. Undefined when it can; else why
   * not, in words for the user.
   */
  async unavailable(): Promise<string | undefined> {
    let out: string;
    try {
      out = (await this.exec(['--version'], {}, undefined, 15_000)).stdout.toString('utf8');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return code === 'ENOENT' ? `no git was found on PATH (${this.gitPath})` : `git could not be run: ${error instanceof Error ? error.message : String(error)}`;
    }
    const m = /(\d+)\.(\d+)/.exec(out);
    if (!m) return `git printed an unknown version: ${out.trim()}`;
    const [major, minor] = [Number(m[1]), Number(m[2])];
    if (major < minVersion[0] || (major === minVersion[0] && minor < minVersion[1])) return `git ${m[0]} is too old (${minVersion.join('.')} or newer is needed)`;
    return undefined;
  }

  /**
   * Runs `git <args>` for a shadow repository. Rejects with a {@link GitError} when git exits with a code
   * not in `okCodes` (default: only 0).
   */
  async run(repo: RepoPaths, args: readonly string[], o: { input?: string | Buffer; okCodes?: readonly number[] } = {}): Promise<GitResult> {
    const env = {
      GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.workTree, GIT_INDEX_FILE: repo.indexFile,
      // paths we pass are file names, never patterns
      GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0',
    };
    return this.exec([...fixedConfig, ...args], env, o.input, this.timeoutMs, o.okCodes ?? [0], repo.workTree);
  }

  /** Runs git outside any repository (`init`). */
  async plain(args: readonly string[], cwd?: string): Promise<GitResult> {
    return this.exec([...fixedConfig, ...args], {}, undefined, this.timeoutMs, [0], cwd);
  }

  private exec(args: readonly string[], extraEnv: Record<string, string>, input: string | Buffer | undefined, timeout: number, okCodes: readonly number[] = [0], cwd?: string): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const child = execFile(this.gitPath, args, {
        env: { ...cleanEnv(process.env), LC_ALL: 'C', ...extraEnv }, cwd, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024, timeout, windowsHide: true,
      }, (error, stdout, stderrBuf) => {
        const stderr = stderrBuf.toString('utf8');
        const code = error ? (error as { code?: unknown }).code : 0;
        if (typeof code === 'number' && okCodes.includes(code)) return resolve({ stdout, stderr, code });
        if (!error) return resolve({ stdout, stderr, code: 0 });
        if (code === 'ENOENT') return reject(Object.assign(new Error(`git not found (${this.gitPath})`), { code }));
        reject(new GitError(args, typeof code === 'number' || typeof code === 'string' ? code : (error.killed ? 'killed' : 'failed'), stderr || error.message));
      });
      child.stdin?.on('error', () => undefined); // git may exit before it read all of its input
      child.stdin?.end(input);
    });
  }
}

/** The arguments as a person would read them: without the fixed `-c` options. */
function shownArgs(args: readonly string[]): readonly string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else out.push(args[i]);
  }
  return out;
}

/** The environment without `GIT_*` variables (they would point git at other repositories or configs). */
export function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !/^GIT_/i.test(k)) out[k] = v;
  return out;
}

/** Splits git's `-z` output into its NUL-separated fields (the trailing empty one dropped). */
export function nulFields(out: Buffer): string[] {
  const text = out.toString('utf8');
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}
