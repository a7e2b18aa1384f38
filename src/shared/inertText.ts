/**
 * Agent text bound for the workbench, made inert.
 *
 * Outside the chat webview (which sanitizes its own Markdown), agent-derived text (tool-call titles,
 * permission option names, session titles, error messages, stderr lines, file paths, agent names from
 * settings or the ACP Registry) reaches VS Code surfaces that interpret part of what they are given:
 *
 * | sink kind  | surfaces                                                              | what VS Code renders there |
 * |------------|-----------------------------------------------------------------------|----------------------------|
 * | `message`  | notifications (`show*Message`), modal dialog messages, notification   | `[label](command:…)`, `[label](https:…)`, `[label](file:…)` links |
 * |            | buttons and progress titles                                           | (no codicons: a `\$(` would show its backslash) |
 * | `label`    | quick pick labels, descriptions, details and titles; input box        | `$(icon)` codicons         |
 * |            | titles; status bar text; terminal names                               |                            |
 * | `plain`    | editor and tab titles, tree item labels and descriptions, string      | nothing, but invisible and |
 * |            | tooltips, output channel names, modal `detail`                        | bidi characters still spoof |
 * | `markdown` | `MarkdownString` content (tree tooltips)                              | Markdown, links, autolinks |
 *
 * Every sink gets the same base treatment: invisible and bidirectional control characters are shown as
 * `<U+202E>` markers (a title or a path cannot be spoofed), line breaks become spaces, and the length is
 * capped with an ellipsis. Then, per sink, the syntax it renders is neutralised so that it shows
 * literally: codicon syntax is escaped the way VS Code's own `escapeIcons` does (`\$(icon)`), link syntax
 * (`](`) gets a space that VS Code's link parser cannot cross, and Markdown escapes every ASCII
 * punctuation character (so no link, autolink, emphasis, HTML or entity can form). A `MarkdownString` that
 * carries agent text is never `isTrusted`, has no `supportHtml` and no `supportThemeIcons`.
 *
 * The sinks themselves are listed in docs/architecture.md ("Agent text in the workbench"); an ESLint rule
 * (eslint.config.mjs) flags template literals with interpolations passed straight to those APIs, so a
 * new sink goes through `inert.*` tags or `inertText()`.
 */

/** Where the text goes: decides which syntax is neutralised (see the table above). */
export type InertSink = 'message' | 'label' | 'plain' | 'markdown';

/** Default length caps per sink, in characters (code points), ellipsis included. */
export const inertMaxLength: Readonly<Record<InertSink, number>> = { message: 300, label: 120, plain: 200, markdown: 1000 };

/**
 * Characters that are invisible or reorder text: bidi embeddings, overrides and isolates, marks, zero-width
 * characters, invisible operators, the BOM, soft hyphen, Mongolian vowel separator, line and paragraph
 * separators, Unicode tag characters (used to smuggle invisible instructions), C0 and C1 controls.
 */
const invisible = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u206A-\u206F\u2066-\u2069\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\u{E0000}|[\u{E0001}-\u{E007F}]/gu;
/** A zero-width joiner inside an emoji sequence (👨‍👩‍👧) is part of the emoji, not a spoof. */
const emojiJoiner = /(\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;
const joinerMark = '\u{F0000}'; // a private-use stand-in, restored after the invisible pass
const lineBreaks = /\r\n|[\n\r\u2028\u2029\u0085]/g;

function marker(ch: string): string {
  return `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Invisible and bidi characters as visible markers, line breaks and tabs as spaces. */
export function revealInvisible(text: string): string {
  return text
    .replace(lineBreaks, ' ')
    .replace(/\t/g, ' ')
    .replace(emojiJoiner, `$1${joinerMark}`)
    .replace(invisible, marker)
    .replace(/\u{F0000}/gu, '\u200D');
}

/** Caps `text` at `max` code points with an ellipsis, never cutting a surrogate pair or a `<U+…>` marker. */
export function capLength(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  let cut = points.slice(0, Math.max(0, max - 1)).join('');
  cut = cut.replace(/<(U(\+[0-9A-F]{0,6})?)?$/, ''); // a marker is never cut in two
  return `${cut}…`;
}

/** `$(icon)` shown literally: VS Code's icon renderer leaves a `\`-escaped `$(…)` as text. */
function escapeIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/**
 * Link syntax shown literally. VS Code's notification and dialog link parser needs `](` followed by an
 * `http(s)://`, `command:` or `file:` target, and has no escape: a space between `]` and `(` keeps the
 * text readable and the link unformed.
 */
function breakLinks(text: string): string {
  return text.replace(/\]\s*\(/g, '] (');
}

/** Every ASCII punctuation character backslash-escaped (CommonMark): no Markdown construct can form. */
function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * Agent text for one kind of workbench sink: invisible characters revealed, line breaks flattened, the
 * length capped (default per sink), and the syntax that sink renders neutralised.
 */
export function inertText(text: string, sink: InertSink, max = inertMaxLength[sink]): string {
  const capped = capLength(revealInvisible(text), max);
  switch (sink) {
    case 'message': return breakLinks(capped);
    case 'label': return escapeIcons(capped);
    case 'plain': return capped;
    case 'markdown': return escapeMarkdown(capped);
  }
}

type Interpolation = string | number | boolean | null | undefined;
type InertTag = (strings: TemplateStringsArray, ...values: Interpolation[]) => string;

function tag(sink: InertSink): InertTag {
  return (strings, ...values) => {
    let out = strings[0];
    values.forEach((v, i) => {
      out += typeof v === 'string' ? inertText(v, sink) : String(v ?? '');
      out += strings[i + 1];
    });
    return out;
  };
}

/**
 * Template tags for each sink: the literal parts are ours and stay as written; every interpolated string
 * is neutralised for that sink. `vscode.window.showErrorMessage(inert.message\`Could not start ${name}: ${error}\`)`.
 */
export const inert: Readonly<Record<InertSink, InertTag>> = {
  message: tag('message'),
  label: tag('label'),
  plain: tag('plain'),
  markdown: tag('markdown'),
};
