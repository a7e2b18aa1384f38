/**
 * Running Windows `.cmd`/`.bat` files (npm's `npx.cmd`, `claude.cmd`, `gemini.cmd` shims) safely.
 *
 * Node refuses to spawn them directly since the BatBadBut fix (CVE-2024-27980: EINVAL), because
 * cmd.exe re-parses the command line with its own rules, so `&`, `|`, `%VAR%` in an argument could
 * run commands. We therefore build the cmd.exe command line ourselves:
 * 1. each argument is quoted for the program's C runtime (CommandLineToArgvW rules);
 * 2. every cmd.exe metacharacter, the quotes included, is escaped with `^`, so cmd.exe never enters
 *    its quoted state and every `^` is consumed exactly as planned;
 * 3. that escaping is applied twice, because an npm shim passes its arguments on with `%*`, which
 *    cmd.exe parses a second time.
 * The whole line is passed verbatim as `cmd.exe /d /s /v:off /c "<line>"` (no AutoRun, no delayed
 * `!` expansion; `/s` strips exactly the outer quotes).
 */
import { typedError } from '../shared/typedError';

/** What to pass to `child_process.spawn` to run a batch file. */
export interface WindowsCommandLine {
  /** cmd.exe (from ComSpec). */
  readonly file: string;
  /** `['/d', '/s', '/v:off', '/c', '"<escaped line>"']`. */
  readonly args: readonly string[];
  /** Always true: the arguments are already quoted and must not be quoted again by libuv. */
  readonly windowsVerbatimArguments: true;
}

/** Why a value cannot be passed through cmd.exe. */
export type CmdQuotingErrorReason = 'lineBreak' | 'nulCharacter' | 'unsafePath';

/** An argument or path that cmd.exe cannot carry faithfully; the spawn must be refused. */
export class CmdQuotingError extends typedError('CmdQuotingError') {

  constructor(readonly reason: CmdQuotingErrorReason, message: string) {
    super(message);
  }
}

// cmd.exe's specials plus its argument separators; a caret before any other character is harmless
const cmdMetaChars = /[()%!^"<>&|;,= \t]/g;

/**
 * Quotes one argument so a program using the Microsoft C runtime (or CommandLineToArgvW) sees it
 * unchanged: wrapped in quotes, backslashes doubled only where they precede a quote.
 */
export function quoteWindowsArgument(arg: string): string {
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes++;
      continue;
    }
    out += ch === '"' ? '\\'.repeat(backslashes * 2 + 1) + '"' : '\\'.repeat(backslashes) + ch;
    backslashes = 0;
  }
  return out + '\\'.repeat(backslashes * 2) + '"';
}

/** Prefixes every cmd.exe metacharacter with `^` (one level of cmd.exe parsing). */
export function escapeCmdMetaChars(text: string): string {
  return text.replace(cmdMetaChars, '^$&');
}

/** One argument as it must appear on the cmd.exe line to reach a batch file's `%*` target intact. */
export function escapeBatchArgument(arg: string): string {
  if (/[\r\n]/.test(arg)) {
    throw new CmdQuotingError('lineBreak', `The argument ${JSON.stringify(arg)} contains a line break, which cmd.exe cannot pass to a .cmd/.bat program.`);
  }
  if (arg.includes('\0')) throw new CmdQuotingError('nulCharacter', `The argument ${JSON.stringify(arg)} contains a NUL character.`);
  return escapeCmdMetaChars(escapeCmdMetaChars(quoteWindowsArgument(arg)));
}

/**
 * Builds the cmd.exe invocation that runs `batchFile` with `args`.
 * @param batchFile absolute path of the `.cmd`/`.bat`
 * @param comspec cmd.exe to use (the ComSpec variable), default `cmd.exe`
 * @throws CmdQuotingError for line breaks or NUL in an argument, or `%`/`"` in the path
 */
export function toCmdCommandLine(batchFile: string, args: readonly string[], comspec = 'cmd.exe'): WindowsCommandLine {
  // the program path sits inside plain quotes, where ^ does not escape: % would expand, " cannot occur
  if (/[%"\r\n\0]/.test(batchFile)) {
    throw new CmdQuotingError('unsafePath', `The path '${batchFile}' contains a character ('%' or '"') that cmd.exe would misread; move the program to a plain folder.`);
  }
  const line = [`"${batchFile}"`, ...args.map(escapeBatchArgument)].join(' ');
  return { file: comspec, args: ['/d', '/s', '/v:off', '/c', `"${line}"`], windowsVerbatimArguments: true };
}
