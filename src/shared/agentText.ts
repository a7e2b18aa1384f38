/**
 * Agent text that is shaped for a model or a Markdown renderer rather than for the user, recognised by its
 * exact shape (never by guessing), so that the chat can show it as it is meant (docs/security.md "Agent
 * text in the workbench"; it stays inert: these functions only split text, the caller builds text nodes):
 * - {@link inlineCodeSpans}: Markdown inline code in a tool call's title (`` Edit `hello.txt` ``), shown as code;
 * - {@link splitEnvelopes}: envelopes an agent adds for its model (`<system-reminder>…</system-reminder>` in a
 *   tool's output, `<session_context>…</session_context>` and `[Function Response: name]` in a replayed user
 *   message), folded away and shown on demand.
 */

/** A run of a title: plain text, or the text of an inline code span. */
export interface TitleSpan {
  readonly text: string;
  readonly code: boolean;
}

/**
 * A title split into plain text and inline code spans, as CommonMark reads a code span: a run of N backticks
 * up to the next run of exactly N backticks; one space on both sides of the content is stripped when the
 * content is not all spaces. A backtick run with no closing run stays literal text. Nothing else of Markdown
 * (emphasis, links) is read.
 */
export function inlineCodeSpans(title: string): TitleSpan[] {
  const spans: TitleSpan[] = [];
  let plain = '';
  let i = 0;
  while (i < title.length) {
    if (title[i] !== '`') {
      plain += title[i++];
      continue;
    }
    const open = /^`+/.exec(title.slice(i))![0];
    const close = new RegExp(`(?<!\`)${open}(?!\`)`, 'g');
    close.lastIndex = i + open.length;
    const m = close.exec(title);
    if (!m) {
      plain += open;
      i += open.length;
      continue;
    }
    let code = title.slice(i + open.length, m.index).replace(/\n/g, ' ');
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
    if (plain) spans.push({ text: plain, code: false });
    plain = '';
    spans.push({ text: code, code: true });
    i = m.index + open.length;
  }
  if (plain || !spans.length) spans.push({ text: plain, code: false });
  return spans;
}

/** The envelopes recognised, by tag, with the label the chat shows for them. */
const envelopeTags: Readonly<Record<string, string>> = {
  'system-reminder': 'System reminder',
  session_context: 'Session context',
};

/** A part of a text: text for the user, or an agent-internal envelope (its whole text, tags included). */
export type TextPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'envelope'; readonly label: string; readonly text: string };

/**
 * A block that starts a line with `<tag>` and ends a line with `</tag>`, `tag` one of {@link envelopeTags}.
 * `[ \t]*` only: the block is a whole run of lines, not a tag inside a sentence.
 */
const envelopeBlock = new RegExp(`(?:^|(?<=\\n))[ \\t]*<(${Object.keys(envelopeTags).join('|')})>[\\s\\S]*?</\\1>[ \\t]*(?=\\r?\\n|$)`, 'g');
/** A whole text of one or more lines each `[Function Response: name]` (gemini-cli's text for a tool's result part). */
const functionResponses = /^\s*\[Function Response: [^\]\n]+\](?:\s*\n\s*\[Function Response: [^\]\n]+\])*\s*$/;

/**
 * `text` split into the text for the user and the agent-internal envelopes in it, in order. An envelope is a
 * whole block of lines from `<system-reminder>` to `</system-reminder>` (or `<session_context>`), or a whole
 * text that is only `[Function Response: name]` lines. Blank lines around an envelope are left out of the
 * text parts; a text with no envelope is one text part.
 */
export function splitEnvelopes(text: string): TextPart[] {
  if (functionResponses.test(text)) return [{ kind: 'envelope', label: 'Function response', text: text.trim() }];
  if (!text.includes('<')) return [{ kind: 'text', text }];
  const parts: TextPart[] = [];
  let last = 0;
  const pushText = (t: string): void => {
    if (t.trim()) parts.push({ kind: 'text', text: t.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/(?:\r?\n[ \t]*)+$/, '') });
  };
  for (const m of text.matchAll(envelopeBlock)) {
    pushText(text.slice(last, m.index));
    parts.push({ kind: 'envelope', label: envelopeTags[m[1]], text: m[0].trim() });
    last = m.index + m[0].length;
  }
  if (!last) return [{ kind: 'text', text }];
  pushText(text.slice(last));
  return parts;
}
