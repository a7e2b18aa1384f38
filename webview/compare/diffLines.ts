/**
 * A run's unified diff as classed segments (pure, no DOM): the compare view colours each line by what it is and
 * draws each run of same-kind lines as one element, so a long diff is a few hundred nodes, not one per line.
 * Inside a hunk the line counts of its `@@ -a,b +c,d @@` header decide, so a removed line that reads
 * `--- x` is a removed line, not a file header; outside one (or in a diff without hunk headers) the prefix does.
 */

/** What one line of a unified diff is. */
export type DiffLineKind = 'file' | 'meta' | 'hunk' | 'added' | 'removed' | 'context';

/** Consecutive lines of one kind, joined by `\n` (no trailing newline). */
export interface DiffSegment {
  readonly kind: DiffLineKind;
  readonly text: string;
  readonly lines: number;
}

const hunkHeader = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** The kinds of the lines of `diff`, in order. `\r\n` counts as a line break; a final newline ends the last line. */
export function diffLineKinds(diff: string): { readonly kind: DiffLineKind; readonly text: string }[] {
  const lines = diff.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: { kind: DiffLineKind; text: string }[] = [];
  let oldLeft = 0;
  let newLeft = 0;
  for (const text of lines) {
    if (oldLeft > 0 || newLeft > 0) {
      const mark = text[0];
      if (mark === '+' && newLeft > 0) { newLeft--; out.push({ kind: 'added', text }); continue; }
      if (mark === '-' && oldLeft > 0) { oldLeft--; out.push({ kind: 'removed', text }); continue; }
      if ((mark === ' ' || text === '') && oldLeft > 0 && newLeft > 0) { oldLeft--; newLeft--; out.push({ kind: 'context', text }); continue; }
      if (mark === '\\') { out.push({ kind: 'meta', text }); continue; }
      // a line the counts did not expect: the hunk is over (a malformed or cut diff), read it as a header
      oldLeft = 0;
      newLeft = 0;
    }
    const hunk = hunkHeader.exec(text);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      out.push({ kind: 'hunk', text });
    } else if (text.startsWith('diff ')) out.push({ kind: 'file', text });
    else if (text.startsWith('+++ ') || text.startsWith('--- ') || text.startsWith('\\')) out.push({ kind: 'meta', text });
    else if (text.startsWith('@@')) out.push({ kind: 'hunk', text });
    else if (text.startsWith('+')) out.push({ kind: 'added', text });
    else if (text.startsWith('-')) out.push({ kind: 'removed', text });
    else if (text.startsWith(' ')) out.push({ kind: 'context', text });
    else out.push({ kind: 'meta', text }); // index, new file mode, rename from, Binary files … differ
  }
  return out;
}

/** The lines of `diff` grouped into runs of one kind. */
export function diffSegments(diff: string): DiffSegment[] {
  const segments: { kind: DiffLineKind; lines: string[] }[] = [];
  for (const line of diffLineKinds(diff)) {
    const last = segments[segments.length - 1];
    if (last && last.kind === line.kind) last.lines.push(line.text);
    else segments.push({ kind: line.kind, lines: [line.text] });
  }
  return segments.map((s) => ({ kind: s.kind, text: s.lines.join('\n'), lines: s.lines.length }));
}
