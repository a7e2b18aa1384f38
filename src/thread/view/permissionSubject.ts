/**
 * What a permission request is about, exactly as the tool call says it: the command line, the working
 * directory and the paths, taken from the call's `rawInput`, its `locations` and its diffs (pure; no vscode).
 * The dialog shows these verbatim (invisible characters made visible, webview/views/visibleText.ts), so that
 * what the user approves is what runs, not only the agent's own title for it.
 *
 * `rawInput` is free-form. The keys read are the ones agents commonly use: `command` / `cmd` (a string, or an
 * argv array, shown shell-quoted) with `args` / `argv` appended; `cwd` / `workdir`; `path`, `file_path`,
 * `filePath`, `notebook_path`, `abs_path` and `paths`. A `rawInput` that is itself a JSON text of an object is
 * parsed first. Anything else stays in the card's "Raw input".
 */
import type { ToolCallContent, ToolCallLocation } from '../../acp/schema/types.gen';
import type { PermissionSubjectView } from '../../shared/viewModel';

/** Items of a subject at most (a call that touches more paths lists the first ones). */
export const subjectMaxItems = 20;
/** Characters of one item at most; a longer one ends with a note of how many were left out. */
export const subjectMaxChars = 10_000;

const commandKeys = ['command', 'cmd'] as const;
const argKeys = ['args', 'argv'] as const;
const cwdKeys = ['cwd', 'workdir'] as const;
const pathKeys = ['path', 'file_path', 'filePath', 'notebook_path', 'abs_path', 'absolute_path'] as const;

/** The parts of a tool call the subject is read from. */
export interface SubjectSource {
  readonly rawInput?: unknown;
  readonly locations: readonly ToolCallLocation[];
  readonly content: readonly ToolCallContent[];
}

/** The command line, working directory and paths of a tool call, in that order, each once. */
export function permissionSubject(call: SubjectSource): PermissionSubjectView[] {
  const out: PermissionSubjectView[] = [];
  const add = (kind: PermissionSubjectView['kind'], text: string | undefined): void => {
    if (text === undefined || text === '' || out.length >= subjectMaxItems) return;
    const capped = text.length > subjectMaxChars ? `${text.slice(0, subjectMaxChars)}… (${text.length - subjectMaxChars} more characters)` : text;
    if (!out.some((s) => s.kind === kind && s.text === capped)) out.push({ kind, text: capped });
  };
  const input = asObject(call.rawInput);
  if (input) {
    add('command', commandLine(input));
    for (const key of cwdKeys) add('cwd', stringAt(input, key));
  }
  for (const p of namedPaths(call)) add('path', p);
  return out;
}

/** Every path a tool call names, as written: its `rawInput`'s path keys and `paths`, its locations, its diffs. */
export function namedPaths(call: SubjectSource): string[] {
  const out: string[] = [];
  const input = asObject(call.rawInput);
  if (input) {
    for (const key of pathKeys) {
      const p = stringAt(input, key);
      if (p !== undefined) out.push(p);
    }
    out.push(...(stringsAt(input, 'paths') ?? []));
  }
  for (const l of call.locations) out.push(l.path);
  for (const c of call.content) if (c.type === 'diff') out.push(c.path);
  return out;
}

/** `rawInput` as an object: itself, or parsed from a JSON text of an object. */
export function asObject(raw: unknown): Record<string, unknown> | undefined {
  let value = raw;
  if (typeof value === 'string' && /^\s*\{/.test(value)) {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}

function stringAt(o: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

/** An array of strings (argv, paths), else undefined. */
function stringsAt(o: Readonly<Record<string, unknown>>, key: string): string[] | undefined {
  const v = o[key];
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? v as string[] : undefined;
}

/**
 * The command a `rawInput` carries, as written: a shell line (`command` / `cmd` a string), or an argv that runs
 * without a shell (an argv array, or a string command followed by `args` / `argv`); undefined when it carries none.
 * The ledger (src/host/permissions/grantLedger.ts) and the rules (src/host/permissions/rules/requestRules.ts) read it.
 */
export function rawCommand(rawInput: unknown): { readonly line: string } | { readonly argv: readonly string[] } | undefined {
  const input = asObject(rawInput);
  if (!input) return undefined;
  const extra = argKeys.map((k) => stringsAt(input, k)).find((a) => a !== undefined) ?? [];
  for (const key of commandKeys) {
    const argv = stringsAt(input, key);
    if (argv) return { argv: [...argv, ...extra] };
    const line = stringAt(input, key);
    if (line !== undefined && line.trim() !== '') return extra.length > 0 ? { argv: [line, ...extra] } : { line };
  }
  return undefined;
}

/** `command` (a command line, or an argv array shell-quoted) followed by `args`, or undefined. */
function commandLine(input: Record<string, unknown>): string | undefined {
  return commandOf(input)?.line;
}

/**
 * The command line of a free-form object (`rawInput`, `rawOutput`): `command` or `cmd` (a string, or an argv array
 * shell-quoted) followed by `args` / `argv`, and the keys it was read from; undefined when it has none.
 */
export function commandOf(input: Readonly<Record<string, unknown>>): { readonly line: string; readonly keys: readonly string[] } | undefined {
  for (const key of commandKeys) {
    const line = stringAt(input, key);
    const argv = stringsAt(input, key);
    if (line === undefined && argv === undefined) continue;
    const head = line ?? (argv ?? []).map(shellQuote).join(' ');
    const argKey = argKeys.find((k) => stringsAt(input, k) !== undefined);
    const args = argKey === undefined ? undefined : stringsAt(input, argKey);
    return args ? { line: [head, ...args.map(shellQuote)].join(' '), keys: [key, argKey as string] } : { line: head, keys: [key] };
  }
  return undefined;
}

/** One argument as a POSIX shell would need it: as is when plain, else in single quotes. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
