/**
 * What Follow Agent shows for a tool call, and which lines an edit changed (no vscode import: unit-tested in
 * plain Node). ACP lines are 1-based (https://agentclientprotocol.com/protocol/overview); everything returned
 * here is 0-based.
 */
import * as path from 'node:path';
import { textDiff } from '../../thread/util/textDiff';
import type { ToolCallEntry } from '../../thread/model/toolCall';

/** A range of whole lines, 0-based, both ends included. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

/** The text change of a `diff` content item (`oldText` null: a new file). */
export interface TextChange {
  readonly oldText: string | null;
  readonly newText: string;
}

/** Where to look for one tool call. */
export interface FollowTarget {
  readonly toolCallId: string;
  /** Absolute path of the file. */
  readonly path: string;
  /** 0-based line of the location, when the agent gave one. */
  readonly line?: number;
  /** The change to highlight, for an edit that carries diff content for this path. */
  readonly change?: TextChange;
  /** Tool kind `edit`, or diff content: the changed range is highlighted rather than one line. */
  readonly isEdit: boolean;
  /** Identifies what is shown: the same key again means nothing new to show. */
  readonly key: string;
}

/** The fields of a tool call that Follow Agent reads. */
export type FollowableToolCall = Pick<ToolCallEntry, 'toolCallId' | 'toolKind' | 'status' | 'locations' | 'content'>;

/**
 * The target of a tool call: its last location with an absolute path (the newest place the agent points
 * at), else the path of its last diff. Undefined when it names no file.
 */
export function followTarget(call: FollowableToolCall): FollowTarget | undefined {
  const diffs = call.content.flatMap((c) => (c.type === 'diff' && path.isAbsolute(c.path) ? [c] : []));
  const location = [...call.locations].reverse().find((l) => typeof l.path === 'string' && path.isAbsolute(l.path));
  const file = location?.path ?? diffs[diffs.length - 1]?.path;
  if (!file) return undefined;
  const diff = [...diffs].reverse().find((d) => d.path === file);
  const change = diff ? { oldText: diff.oldText ?? null, newText: diff.newText } : undefined;
  const line = typeof location?.line === 'number' ? Math.max(0, location.line - 1) : undefined;
  const isEdit = call.toolKind === 'edit' || change !== undefined;
  // an edit is shown again once it completed: the changed lines are in the file now
  const done = isEdit && call.status === 'completed';
  const key = [file, line ?? '', change ? `${hash(change.oldText ?? '')}:${hash(change.newText)}` : '', done ? 'done' : ''].join('\u0000');
  return { toolCallId: call.toolCallId, path: file, ...(line !== undefined ? { line } : {}), ...(change ? { change } : {}), isEdit, key };
}

/** Number of lines of `text` as the line diff counts them (a final newline does not start a line). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * The lines of `newText` that differ from `oldText` (a deletion marks the line where it happened).
 * A new file (`oldText` null or empty) is changed everywhere.
 */
export function changedLines(oldText: string | null, newText: string): LineRange[] {
  const total = lineCount(newText);
  if (!oldText) return total > 0 ? [{ start: 0, end: total - 1 }] : [];
  if (oldText === newText) return [];
  const changes = textDiff().diffLines(oldText, newText, { timeout: 200 });
  if (!changes) return trimmedRange(oldText, newText);
  const ranges: LineRange[] = [];
  let line = 0;
  for (const c of changes) {
    if (c.added) {
      ranges.push({ start: line, end: line + c.count - 1 });
      line += c.count;
    } else if (c.removed) {
      const at = Math.max(0, Math.min(line, total - 1));
      ranges.push({ start: at, end: at });
    } else {
      line += c.count;
    }
  }
  return mergeRanges(ranges);
}

/**
 * Where an edit is in the document text: the changed lines when the document is the new text, or contains
 * it (an `old_string`/`new_string` style snippet, nearest to `hintLine`); the old text's lines when the edit
 * is not applied yet; nothing when neither is found.
 */
export function locateEdit(docText: string, change: TextChange, hintLine?: number): LineRange[] {
  const { oldText, newText } = change;
  if (docText === newText) return changedLines(oldText, newText);
  if (newText.length > 0) {
    const base = nearestLine(docText, newText, hintLine);
    if (base !== undefined) {
      const inSnippet = changedLines(oldText, newText);
      const ranges = inSnippet.length ? inSnippet : [{ start: 0, end: Math.max(0, lineCount(newText) - 1) }];
      return ranges.map((r) => ({ start: r.start + base, end: r.end + base }));
    }
  }
  if (oldText) {
    const base = nearestLine(docText, oldText, hintLine);
    if (base !== undefined) return [{ start: base, end: base + Math.max(0, lineCount(oldText) - 1) }];
  }
  return [];
}

/** Sorted ranges with overlapping or touching ones joined. */
export function mergeRanges(ranges: readonly LineRange[]): LineRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: LineRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) out[out.length - 1] = { start: last.start, end: Math.max(last.end, r.end) };
    else out.push(r);
  }
  return out;
}

/** The line (0-based) of the occurrence of `needle` nearest to `hintLine` (the first without a hint). */
function nearestLine(text: string, needle: string, hintLine: number | undefined, maxOccurrences = 1000): number | undefined {
  let best: number | undefined;
  let line = 0;
  let scanned = 0;
  for (let at = text.indexOf(needle), seen = 0; at !== -1 && seen < maxOccurrences; at = text.indexOf(needle, at + 1), seen++) {
    for (let i = text.indexOf('\n', scanned); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    scanned = at;
    if (hintLine === undefined) return line;
    if (best === undefined || Math.abs(line - hintLine) < Math.abs(best - hintLine)) best = line;
    else break; // occurrences only move away from the hint from here on
  }
  return best;
}

/** One range between the common leading and trailing lines (when the line diff gave up). */
function trimmedRange(oldText: string, newText: string): LineRange[] {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const total = Math.max(1, lineCount(newText));
  const start = Math.min(head, total - 1);
  return [{ start, end: Math.max(start, Math.min(b.length - 1 - tail, total - 1)) }];
}

/** FNV-1a over the UTF-16 code units: a cheap fingerprint for the de-duplication key. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length}.${(h >>> 0).toString(36)}`;
}
