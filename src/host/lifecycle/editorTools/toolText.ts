/**
 * How the editor's MCP tools write their answers (docs/editor-tools.md): plain text an agent reads, paths
 * relative to the session's folder, lines and columns counted from 1 as the editor shows them, and every answer
 * cut to a size with a note that says so. No vscode import: unit-tested in plain Node.
 */
import * as path from 'node:path';
import { typedError } from '../../../shared/typedError';

/** The largest answer a tool gives, in bytes of UTF-8 (about 16k tokens). */
export const maxToolResultBytes = 64 * 1024;

/** A tool call the editor refuses or cannot answer: its message is the tool's error text for the agent. */
export class EditorToolError extends typedError('EditorToolError') {}

/**
 * `text`, cut at a line break to at most `maxBytes` bytes of UTF-8, with a last line that says how much was
 * left out and how to ask for less.
 */
export function capText(text: string, maxBytes = maxToolResultBytes, hint = 'ask for less (a file, a range, a narrower query)'): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  const note = (cut: number) => `\n… ${cut} more bytes left out (the answer is limited to ${maxBytes} bytes): ${hint}.`;
  const room = Math.max(0, maxBytes - Buffer.byteLength(note(bytes), 'utf8'));
  let head = Buffer.from(text, 'utf8').subarray(0, room).toString('utf8').replace(/\uFFFD$/, '');
  const lastBreak = head.lastIndexOf('\n');
  if (lastBreak > 0) head = head.slice(0, lastBreak);
  return head + note(bytes - Buffer.byteLength(head, 'utf8'));
}

/** A path as the agent is told it: relative to `cwd` when inside it, else absolute. */
export function shownPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

/** The absolute path an agent meant: relative paths are taken from `cwd`; empty or NUL paths are refused. */
export function agentToolPath(cwd: string, p: string): string {
  if (!p.trim()) throw new EditorToolError('path must not be empty');
  if (p.includes('\0')) throw new EditorToolError('path must not contain NUL characters');
  const fromUri = p.startsWith('file://') ? decodeURIComponent(new URL(p).pathname) : p;
  return path.resolve(cwd, fromUri);
}

/** A zero-based position from a tool's 1-based line and column, checked. */
export function zeroBased(line: number, column: number): { line: number; character: number } {
  if (!Number.isInteger(line) || line < 1) throw new EditorToolError('line counts from 1');
  if (!Number.isInteger(column) || column < 1) throw new EditorToolError('column counts from 1');
  return { line: line - 1, character: column - 1 };
}

/** `path:line:column` (counted from 1) from a path and a zero-based position. */
export function place(cwd: string, file: string, pos: { line: number; character: number }): string {
  return `${shownPath(cwd, file)}:${pos.line + 1}:${pos.character + 1}`;
}

/** Severity names in the editor's order (DiagnosticSeverity 0–3). */
export const severityNames = ['error', 'warning', 'information', 'hint'] as const;
export type SeverityName = (typeof severityNames)[number];

/** One problem as the diagnostics tool lists it. */
export interface ProblemLine {
  readonly file: string;
  readonly severity: number;
  readonly start: { line: number; character: number };
  readonly end: { line: number; character: number };
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

/** The diagnostics answer: a count line, then one line per problem, the most severe first. */
export function problemsText(cwd: string, problems: readonly ProblemLine[], unsaved: ReadonlySet<string>): string {
  if (!problems.length) return 'No problems.';
  const sorted = [...problems].sort((a, b) => a.severity - b.severity || a.file.localeCompare(b.file) || a.start.line - b.start.line || a.start.character - b.start.character);
  const files = new Set(sorted.map((p) => p.file));
  const counts = severityNames.map((name, i) => [name, sorted.filter((p) => p.severity === i).length] as const).filter(([, n]) => n > 0);
  const head = `${sorted.length} problem${sorted.length === 1 ? '' : 's'} in ${files.size} file${files.size === 1 ? '' : 's'} (${counts.map(([name, n]) => `${n} ${name}${n === 1 || name === 'information' ? '' : 's'}`).join(', ')})`;
  const lines = sorted.map((p) => {
    const where = `${place(cwd, p.file, p.start)}-${p.end.line + 1}:${p.end.character + 1}`;
    const from = [p.source, p.code].filter(Boolean).join(' ');
    return `${where} ${severityNames[p.severity] ?? 'error'}${from ? ` [${from}]` : ''}: ${p.message.replace(/\s*\n\s*/g, ' ')}`;
  });
  const dirty = [...files].filter((f) => unsaved.has(f)).map((f) => shownPath(cwd, f));
  const note = dirty.length ? [`(unsaved changes in the editor: ${dirty.join(', ')}; the problems are of the text as the editor holds it)`] : [];
  return [head, ...note, ...lines].join('\n');
}

/** Lines `from`–`to` (1-based, inclusive, clamped) of `text`, each prefixed with its number. */
export function numberedLines(text: string, from = 1, to = Number.MAX_SAFE_INTEGER): { text: string; from: number; to: number; total: number } {
  const lines = text.split(/\r?\n/);
  const total = lines.length;
  const a = Math.min(Math.max(1, Math.floor(from)), total);
  const b = Math.min(Math.max(a, Math.floor(to)), total);
  const width = String(b).length;
  const body = lines.slice(a - 1, b).map((l, i) => `${String(a + i).padStart(width)}  ${l}`).join('\n');
  return { text: body, from: a, to: b, total };
}
