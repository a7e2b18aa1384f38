/**
 * A tool call's `rawOutput` mapped to what the card shows (pure; docs/chat.md "Raw output of a tool call").
 * `rawOutput` is free-form (https://agentclientprotocol.com/protocol/tool-calls); some agents send a command's
 * output or a patch only there. codex-acp, for example, sends its exec event: `{command: [argv], cwd, stdout,
 * stderr, aggregated_output, formatted_output, exit_code, duration, …}`, and its patch event: `{changes: {"/abs/path":
 * {type: "update", unified_diff, move_path} | {type: "add" | "delete", content}}, stdout, stderr, success}`.
 *
 * When the tool call has no content of its own, the known fields become the card's content: the command line, the
 * exit code, the printed text (terminal text, ANSI kept) and the diffs (parsed with the `diff` package); the rest
 * stays collapsible JSON. When it has content, all of `rawOutput` is that JSON. A plain string is printed text.
 * Everything is capped, like terminal output (docs/chat.md#terminal-output-in-the-chat): a text keeps its
 * last 32 KiB, the JSON its first 32 KiB, the diffs 1,000 lines of 50 files.
 */
import { textDiff } from '../util/textDiff';
import type { StructuredPatch, StructuredPatchHunk } from 'diff';
import type { DiffHunkView, RawDiffView, RawOutputView, RawTextView } from '../../shared/rawOutputModel';
import { terminalTailStart } from '../../shared/terminalTail';
import { terminalTailChars } from '../../shared/viewModel';
import { commandOf } from './permissionSubject';

/** Characters kept of each printed text (its tail). */
export const rawTextTailChars = terminalTailChars;
/** Characters kept of the JSON (its head). */
export const rawJsonMaxChars = 32 * 1024;
/** Characters kept of the command line. */
export const rawCommandMaxChars = 4096;
/** Files shown of a `changes` map. */
export const rawDiffMaxFiles = 50;
/** Diff lines shown, over all files. */
export const rawDiffMaxLines = 1000;
/** Characters kept of one diff line. */
const diffLineMaxChars = 1000;
/** Characters of one unified diff (or file content) read at most: a longer one is cut at a hunk (or line) start. */
const diffInputMaxChars = 1024 * 1024;

/** The printed-text fields, in the order they are preferred; `aggregated_output` already holds stdout and stderr. */
const aggregatedKeys = ['aggregated_output', 'aggregatedOutput'];
const stdoutKeys = ['stdout'];
const stderrKeys = ['stderr'];
const fallbackKeys = ['formatted_output', 'formattedOutput', 'output'];
const exitCodeKeys = ['exit_code', 'exitCode'];
const diffKeys = ['unified_diff', 'unifiedDiff', 'diff', 'patch'];

/** Views already made, by `rawOutput` object (an update replaces the object, so identity is a good key). */
const memo = new WeakMap<object, { readonly hasContent: boolean; readonly view: RawOutputView | undefined }>();

/**
 * The view of a tool call's `rawOutput`, or undefined when there is nothing to show (absent, `null`, an empty string).
 * @param hasContent whether the tool call has content of its own: then `rawOutput` is only offered as JSON
 */
export function rawOutputToView(raw: unknown, hasContent: boolean): RawOutputView | undefined {
  if (typeof raw !== 'object' || raw === null) return mapRawOutput(raw, hasContent);
  const known = memo.get(raw);
  if (known?.hasContent === hasContent) return known.view;
  const view = mapRawOutput(raw, hasContent);
  memo.set(raw, { hasContent, view });
  return view;
}

function mapRawOutput(raw: unknown, hasContent: boolean): RawOutputView | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (hasContent) return { texts: [], diffs: [], ...cappedJson(raw) };
  if (typeof raw === 'string') return { texts: [tail('output', raw)], diffs: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { texts: [], diffs: [], ...cappedJson(raw) };
  const rest: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const command = commandOf(rest);
  for (const key of command?.keys ?? []) delete rest[key];
  const exitCode = take(rest, exitCodeKeys, (v): v is number => Number.isInteger(v));
  const texts = takeTexts(rest);
  const { diffs, omittedDiffs } = takeDiffs(rest);
  return {
    ...(command ? { command: capHead(command.line, rawCommandMaxChars) } : {}),
    ...(exitCode !== undefined ? { exitCode } : {}),
    texts,
    diffs: capLines(diffs),
    ...(omittedDiffs ? { omittedDiffs } : {}),
    ...(Object.keys(rest).length ? cappedJson(rest) : {}),
  };
}

/** The first value of `keys` that passes `ok`, taken out of `rest`. */
function take<T>(rest: Record<string, unknown>, keys: readonly string[], ok: (v: unknown) => v is T): T | undefined {
  for (const key of keys) {
    const v = rest[key];
    if (!ok(v)) continue;
    delete rest[key];
    return v;
  }
  return undefined;
}

const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * The printed text: `aggregated_output` (stdout and stderr as the terminal showed them), else `stdout` and `stderr`,
 * else `formatted_output` or `output`. Every string among them is taken out of `rest`: the others repeat what is shown.
 */
function takeTexts(rest: Record<string, unknown>): RawTextView[] {
  return takeFullTexts(rest).map(([label, text]) => tail(label, text));
}

/** The printed texts of {@link takeTexts}, whole. */
function takeFullTexts(rest: Record<string, unknown>): [RawTextView['label'], string][] {
  const aggregated = take(rest, aggregatedKeys, isString);
  const stdout = take(rest, stdoutKeys, isString);
  const stderr = take(rest, stderrKeys, isString);
  const fallback = fallbackKeys.map((k) => take(rest, [k], isString)).find((v) => v);
  if (aggregated) return [['output', aggregated]];
  const streams: [RawTextView['label'], string][] = [];
  if (stdout) streams.push(['stdout', stdout]);
  if (stderr) streams.push(['stderr', stderr]);
  if (streams.length) return streams;
  return fallback ? [['output', fallback]] : [];
}

/**
 * The whole of what the card shows capped (Open full output): the printed text `label` of a `rawOutput` that has
 * no content of its own, or, without a label, the JSON block (all of `rawOutput` when `hasContent`, else the rest).
 */
export function rawOutputFullText(raw: unknown, hasContent: boolean, label?: RawTextView['label']): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (hasContent) return label ? undefined : typeof raw === 'string' ? raw : prettyJson(raw);
  if (typeof raw === 'string') return label === 'output' ? raw : undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) return label ? undefined : prettyJson(raw);
  const rest: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  if (label) return takeFullTexts(rest).find(([l]) => l === label)?.[1];
  // the JSON block is what mapRawOutput leaves of it
  for (const key of commandOf(rest)?.keys ?? []) delete rest[key];
  take(rest, exitCodeKeys, (v): v is number => Number.isInteger(v));
  takeFullTexts(rest);
  takeDiffs(rest);
  return Object.keys(rest).length ? prettyJson(rest) : undefined;
}

/** The diffs of a `changes` map (or array of `{path, …}`) and of a unified diff at the top level, taken out of `rest`. */
function takeDiffs(rest: Record<string, unknown>): { diffs: RawDiffView[]; omittedDiffs: number } {
  const diffs: RawDiffView[] = [];
  let omittedDiffs = 0;
  const add = (d: RawDiffView | undefined): boolean => {
    if (!d) return false;
    if (diffs.length < rawDiffMaxFiles) diffs.push(d);
    else omittedDiffs++;
    return true;
  };
  const changes = rest.changes;
  if (typeof changes === 'object' && changes !== null) {
    const entries = Array.isArray(changes)
      ? changes.map((c: unknown): [unknown, unknown] => [typeof c === 'object' && c !== null ? (c as Record<string, unknown>).path : undefined, c])
      : Object.entries(changes);
    const left = entries.filter(([path, change]) => !(typeof path === 'string' && add(changeToDiff(path, change))));
    if (left.length < entries.length) {
      if (left.length) rest.changes = Array.isArray(changes) ? left.map(([, c]) => c) : Object.fromEntries(left);
      else delete rest.changes;
    }
  }
  for (const key of diffKeys) {
    const text = rest[key];
    if (typeof text !== 'string') continue;
    const parsed = patchDiffs(text);
    if (!parsed?.length) continue;
    parsed.forEach(add);
    delete rest[key];
  }
  return { diffs, omittedDiffs };
}

/**
 * One entry of a `changes` map: a unified diff (`unified_diff`, `diff`, `patch`, or the value itself), or a file
 * added or deleted with its `content` (`{type: "add", content}`, or `{add: {content}}`); undefined when it is neither.
 */
function changeToDiff(path: string, change: unknown): RawDiffView | undefined {
  if (typeof change === 'string') return unifiedDiff(path, change, 'modified');
  if (typeof change !== 'object' || change === null) return undefined;
  const c = change as Record<string, unknown>;
  for (const kind of ['update', 'add', 'delete']) {
    // externally tagged: {"update": {"unified_diff": …}}
    if (typeof c[kind] === 'object' && c[kind] !== null) return changeToDiff(path, { type: kind, ...(c[kind] as object) });
  }
  const movePath = typeof c.move_path === 'string' ? c.move_path : typeof c.movePath === 'string' ? c.movePath : undefined;
  const diffText = diffKeys.map((k) => c[k]).find(isString);
  if (diffText !== undefined) {
    const d = unifiedDiff(path, diffText, c.type === 'add' ? 'added' : c.type === 'delete' ? 'deleted' : 'modified');
    return d && movePath ? { ...d, movePath } : d;
  }
  if (typeof c.content !== 'string' || (c.type !== 'add' && c.type !== 'delete')) return undefined;
  const content = capHead(c.content, diffInputMaxChars);
  const patch = c.type === 'add' ? textDiff().structuredPatch(path, path, '', content, '', '', { context: 0 }) : textDiff().structuredPatch(path, path, content, '', '', '', { context: 0 });
  return { path, change: c.type === 'add' ? 'added' : 'deleted', hunks: patch.hunks.map(hunkView) };
}

/** A unified diff of one file (the hunks of every file section in it), or undefined when it does not parse. */
function unifiedDiff(path: string, text: string, change: RawDiffView['change']): RawDiffView | undefined {
  const patches = parseDiffText(text);
  if (!patches) return undefined;
  const hunks = patches.flatMap((p) => p.hunks.map(hunkView));
  return hunks.length || text.trim() === '' ? { path, change, hunks } : undefined;
}

/** A unified diff of one or more files (file names from its `---` / `+++` lines), or undefined. */
function patchDiffs(text: string): RawDiffView[] | undefined {
  return parseDiffText(text)?.filter((p) => p.hunks.length).map((p) => {
    const oldName = stripPrefix(p.oldFileName);
    const newName = stripPrefix(p.newFileName);
    const change = oldName === '/dev/null' ? 'added' : newName === '/dev/null' ? 'deleted' : 'modified';
    const path = (change === 'deleted' ? oldName : newName) || oldName || 'diff';
    return { path, change, hunks: p.hunks.map(hunkView) };
  });
}

/** The `diff` package's parse of a unified diff, cut at a hunk start when it is too long; undefined if it does not parse. */
function parseDiffText(text: string): StructuredPatch[] | undefined {
  let input = text;
  if (input.length > diffInputMaxChars) {
    const cut = input.lastIndexOf('\n@@', diffInputMaxChars);
    input = input.slice(0, cut > 0 ? cut + 1 : diffInputMaxChars);
  }
  try {
    return textDiff().parsePatch(input);
  } catch {
    return undefined; // a malformed diff stays in the JSON
  }
}

function stripPrefix(name: string | undefined): string {
  return (name ?? '').replace(/^[ab]\//, '');
}

function hunkView(h: StructuredPatchHunk): DiffHunkView {
  return { oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines };
}

/** The diffs cut to {@link rawDiffMaxLines} lines in all, each line to {@link diffLineMaxChars} characters. */
function capLines(diffs: readonly RawDiffView[]): RawDiffView[] {
  let budget = rawDiffMaxLines;
  return diffs.map((d) => {
    let omitted = 0;
    const hunks: DiffHunkView[] = [];
    for (const h of d.hunks) {
      if (budget <= 0) {
        omitted += h.lines.length;
        continue;
      }
      const lines = h.lines.slice(0, budget).map((l) => capHead(l, diffLineMaxChars));
      omitted += h.lines.length - lines.length;
      budget -= lines.length;
      hunks.push({ ...h, lines });
    }
    return { ...d, hunks, ...(omitted ? { omittedLines: omitted } : {}) };
  });
}

/** A printed text as the chat keeps it: its last {@link rawTextTailChars} characters, from a line start. */
function tail(label: RawTextView['label'], text: string): RawTextView {
  const start = terminalTailStart(text, rawTextTailChars);
  return start ? { label, text: text.slice(start), droppedChars: start } : { label, text };
}

function capHead(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, cutBefore(text, max))}…` : text;
}

/** `at`, or one less when `at` would split a surrogate pair. */
function cutBefore(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/** A value as the JSON block shows it (a string as is), its head up to {@link rawJsonMaxChars}. */
function cappedJson(value: unknown): { json: string; jsonDroppedChars?: number } {
  return capJson(typeof value === 'string' ? value : prettyJson(value));
}

/** `json`, cut to {@link rawJsonMaxChars} at a line end, and how much was left out. Also for `rawInput`. */
export function capJson(json: string): { json: string; jsonDroppedChars?: number } {
  if (json.length <= rawJsonMaxChars) return { json };
  const newline = json.lastIndexOf('\n', rawJsonMaxChars);
  const cut = newline > rawJsonMaxChars / 2 ? newline : cutBefore(json, rawJsonMaxChars);
  return { json: json.slice(0, cut), jsonDroppedChars: json.length - cut };
}

/** Pretty-printed JSON of anything (a value JSON cannot hold, or one too deep to print, as its string). */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
