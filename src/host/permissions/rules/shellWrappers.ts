/**
 * The argv rules of the shell analyser (src/host/permissions/rules/shellCommand.ts): which programs run another
 * command, which are shells given a script, and which run text that cannot be judged. Pure: words in, a verdict out.
 *
 * - Shells (`sh bash zsh dash ksh ash mksh`, by base name): `-c SCRIPT` (also in a cluster such as `-lc`, `-ec`)
 *   with a literal script is that script's commands; a dynamic script, `-s`, or no script at all (the shell reads
 *   its commands from stdin: `curl x | sh`, `bash < f`, `bash <<EOF`) is opaque; `bash file.sh` is a plain command.
 * - `eval`, `source`, `.` and `trap ACTION …` run text as commands: opaque.
 * - Wrappers: the wrapper is a command of its own (its whole argv) and so is the command it runs, from the wrapped
 *   program on: `env` (options, NAME=value; `-S` opaque), `sudo` (options with their values, NAME=value; `-s`/`-i`
 *   without a command opaque; `-e`, `-l`, `-v`, `-K` run nothing), `xargs` (options; `-I R`/`-i`/`--replace` make
 *   the words holding R dynamic), `find … -exec|-execdir|-ok|-okdir CMD … ;|{} +` (each), `timeout` (options, a
 *   duration), `nice`, `nohup`, `time`, `command` (`-v`/`-V` run nothing), `builtin`, `exec`, `stdbuf`, `ionice`
 *   (`-p`/`-P`/`-u` run nothing), `setsid`, `chroot` (options, the new root; without a command opaque: it starts
 *   a shell). No other program is unwrapped (`watch`, `ssh`, `su`, `npx`, … are commands like any other).
 * - A dynamic word where a wrapper expects an option or its command, or a word that may expand to several words
 *   before the command (an unquoted `$X`, a glob), is opaque: it could be, or shift, the command.
 */

/** A word as the argv rules see it: a ShellWord (src/host/permissions/rules/shellCommand.ts) that may split. */
export interface ArgWord {
  readonly text: string;
  readonly dynamic: boolean;
  /** May become zero or several words: an unquoted expansion, a glob, a brace expansion. */
  readonly split: boolean;
}

/** A command run by a wrapper: argv[start, end), the variables the wrapper sets for it. */
export interface Wrapped {
  readonly start: number;
  readonly end: number;
  readonly assignments: readonly { readonly name: string; readonly value: string }[];
  /** Text the wrapper replaces in these words at run time (`{}` of find, the replace string of `xargs -I`). */
  readonly replace?: string;
}

/** What running an argv means for the analysis. */
export type ArgvVerdict =
  | { readonly kind: 'plain' }
  | { readonly kind: 'opaque'; readonly reason: string }
  /** A shell running the literal script argv[index]: the script's commands replace the shell's. */
  | { readonly kind: 'script'; readonly index: number }
  | { readonly kind: 'wrapper'; readonly wrapped: readonly Wrapped[] };

interface WrapperSpec {
  /** Short options taking a value: the rest of the cluster, else the next word. */
  readonly value?: string;
  /** Short options whose value is only ever attached (`xargs -i{}`): the rest of the cluster. */
  readonly attached?: string;
  /** Long options taking the next word as value unless written `--name=value`. */
  readonly long?: readonly string[];
  /** Options (letters or `--names`) after which the wrapper runs no command. */
  readonly noCommand?: readonly string[];
  /** Options that make the line opaque, and why. */
  readonly opaque?: Readonly<Record<string, string>>;
  /** NAME=value words may follow the options. */
  readonly assignments?: boolean;
  /** Operands before the command: timeout's duration, chroot's new root. */
  readonly operands?: number;
  /** Without a command the wrapper starts a shell reading stdin: always (true), or after one of these options. */
  readonly shellWhenBare?: true | readonly string[];
}

const splitString = 'env -S splits its text into a command line';
const WRAPPERS = new Map<string, WrapperSpec>([
  ['env', { value: 'uC', long: ['--unset', '--chdir'], opaque: { S: splitString, '--split-string': splitString }, assignments: true }],
  ['sudo', {
    value: 'ugCDprtTUR',
    long: ['--user', '--group', '--close-from', '--chdir', '--prompt', '--role', '--type', '--command-timeout', '--other-user', '--host', '--chroot'],
    noCommand: ['e', 'l', 'v', 'K', 'V', '--edit', '--list', '--validate', '--remove-timestamp', '--version', '--help'],
    assignments: true,
    shellWhenBare: ['s', 'i', '--shell', '--login'],
  }],
  ['xargs', { value: 'aEIdLnPs', attached: 'eil', long: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--max-lines', '--process-slot-var'] }],
  ['timeout', { value: 'sk', long: ['--signal', '--kill-after'], operands: 1 }],
  ['nice', { value: 'n', long: ['--adjustment'] }],
  ['nohup', {}],
  ['time', { value: 'fo', long: ['--format', '--output'] }],
  ['command', { noCommand: ['v', 'V'] }],
  ['builtin', {}],
  ['exec', { value: 'a' }],
  ['stdbuf', { value: 'ioe', long: ['--input', '--output', '--error'] }],
  ['ionice', { value: 'cnpPu', long: ['--class', '--classdata', '--pid', '--pgid', '--uid'], noCommand: ['p', 'P', 'u', '--pid', '--pgid', '--uid'] }],
  ['setsid', {}],
  ['chroot', { long: ['--userspec', '--groups'], operands: 1, shellWhenBare: true }],
]);

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh']);
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

const opaque = (reason: string): ArgvVerdict => ({ kind: 'opaque', reason });

/** A word or text quoted in a reason: at most 60 characters. */
export function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
const plain: ArgvVerdict = { kind: 'plain' };

/** What running `argv` (one command's words, after the shell's expansions) means: see the file's comment. */
export function judgeArgv(argv: readonly ArgWord[]): ArgvVerdict {
  const first = argv[0];
  if (!first || first.dynamic) return plain;
  const name = first.text.slice(first.text.lastIndexOf('/') + 1);
  if (first.text === 'eval' || first.text === 'source' || first.text === '.') return opaque(`${first.text} runs text as commands`);
  if (first.text === 'trap' && argv.length > 1 && !['-l', '-p'].includes(argv[1].text)) return opaque('trap runs its text as a command later');
  if (SHELLS.has(name)) return shell(argv, name);
  if (name === 'find') return find(argv);
  const spec = WRAPPERS.get(name);
  return spec ? wrapper(argv, name, spec) : plain;
}

/** A shell's argv: its options, then `-c SCRIPT`, a script file, or nothing (stdin). */
function shell(argv: readonly ArgWord[], name: string): ArgvVerdict {
  let i = 1;
  let script = false;
  let stdin = false;
  while (i < argv.length && !argv[i].dynamic) {
    const t = argv[i].text;
    if (t === '--' || t === '-') { i++; break; }
    if (t.startsWith('--')) {
      if (t === '--help' || t === '--version') return plain;
      i += t === '--rcfile' || t === '--init-file' ? 2 : 1;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(t)) break;
    i++;
    for (const c of t.slice(1)) {
      if (c === 'c' && t[0] === '-') script = true;
      else if (c === 's') stdin = true;
      else if (c === 'o' || c === 'O') i++;
    }
  }
  const operand = argv[i];
  if (script) {
    if (!operand) return opaque(`${name} -c without a script`);
    return operand.dynamic ? opaque(`the script of ${name} -c is dynamic (${clip(operand.text)})`) : { kind: 'script', index: i };
  }
  if (operand?.dynamic) return opaque(`a dynamic word (${clip(operand.text)}) among the arguments of ${name}`);
  if (stdin || !operand) return opaque(`${name} reads its commands from stdin`);
  return plain;
}

/** find's expression: each -exec/-execdir/-ok/-okdir runs the words up to `;` (or `{} +`). */
function find(argv: readonly ArgWord[]): ArgvVerdict {
  const wrapped: Wrapped[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.split) return opaque(`a word of find's expression may expand to several words (${clip(w.text)}), -exec among them`);
    if (w.dynamic || !FIND_EXEC.has(w.text)) continue;
    const start = i + 1;
    let end = start;
    while (end < argv.length && !isExecEnd(argv, start, end)) end++;
    wrapped.push({ start, end, assignments: [], replace: '{}' });
    i = end;
  }
  return { kind: 'wrapper', wrapped };
}

function isExecEnd(argv: readonly ArgWord[], start: number, i: number): boolean {
  const w = argv[i];
  if (w.dynamic) return false;
  return w.text === ';' || (w.text === '+' && i > start && argv[i - 1].text === '{}');
}

/** A wrapper's argv: options (with their values), NAME=value pairs, operands, then the command it runs. */
function wrapper(argv: readonly ArgWord[], name: string, spec: WrapperSpec): ArgvVerdict {
  const seen = new Map<string, string>();
  const valueAt = (i: number): string | undefined => (argv[i]?.split ? undefined : (argv[i]?.text ?? ''));
  const unsure = (w: ArgWord) => opaque(`a dynamic word (${clip(w.text)}) where ${name} expects an option or the command it runs`);
  let i = 1;
  while (i < argv.length) {
    const w = argv[i];
    if (w.dynamic) {
      if (spec.assignments && !w.split && ASSIGNMENT.test(w.text)) break;
      return unsure(w);
    }
    const t = w.text;
    if (t === '--' || (t === '-' && name === 'env')) { i++; if (t === '--') break; continue; }
    if (t.length < 2 || t[0] !== '-') break;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const opt = eq < 0 ? t : t.slice(0, eq);
      const why = spec.opaque?.[opt];
      if (why) return opaque(why);
      const takesNext = eq < 0 && (spec.long?.includes(opt) ?? false);
      const value = takesNext ? valueAt(i + 1) : t.slice(eq + 1);
      if (value === undefined) return unsure(argv[i + 1]);
      seen.set(opt, eq < 0 && !takesNext ? '' : value);
      i += takesNext ? 2 : 1;
      continue;
    }
    i++;
    for (let j = 1; j < t.length; j++) {
      const c = t[j];
      const why = spec.opaque?.[c];
      if (why) return opaque(why);
      if (spec.attached?.includes(c)) { seen.set(c, t.slice(j + 1)); break; }
      if (!spec.value?.includes(c)) { seen.set(c, ''); continue; }
      if (j + 1 < t.length) { seen.set(c, t.slice(j + 1)); break; }
      const value = valueAt(i);
      if (value === undefined) return unsure(argv[i]);
      seen.set(c, value);
      i++;
      break;
    }
  }
  const assignments: { name: string; value: string }[] = [];
  while (spec.assignments && i < argv.length && ASSIGNMENT.test(argv[i].text)) {
    if (argv[i].split) return unsure(argv[i]);
    const t = argv[i++].text;
    assignments.push({ name: t.slice(0, t.indexOf('=')), value: t.slice(t.indexOf('=') + 1) });
  }
  for (let k = 0; k < (spec.operands ?? 0) && i < argv.length; k++, i++) if (argv[i].split) return unsure(argv[i]);
  if ([...seen.keys()].some((o) => spec.noCommand?.includes(o))) return { kind: 'wrapper', wrapped: [] };
  if (i >= argv.length) {
    const bare = spec.shellWhenBare;
    const shellStarts = bare === true || (bare?.some((o) => seen.has(o)) ?? false);
    return shellStarts ? opaque(`${name} without a command starts a shell`) : { kind: 'wrapper', wrapped: [] };
  }
  const replace = name === 'xargs' ? xargsReplace(seen) : undefined;
  return { kind: 'wrapper', wrapped: [{ start: i, end: argv.length, assignments, ...(replace !== undefined ? { replace } : {}) }] };
}

/** The replace string of `xargs -I R`, `-i[R]` or `--replace[=R]` (default `{}`). */
function xargsReplace(seen: ReadonlyMap<string, string>): string | undefined {
  const r = seen.get('I') ?? seen.get('i') ?? seen.get('--replace');
  return r === undefined ? undefined : r || '{}';
}
