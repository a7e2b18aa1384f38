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
 * Secrets are masked first, at every sink: token shapes always, and the extension's known secret values
 * (agent env, MCP env and headers, logins) once activation installs its masker ({@link useSecretMasker}).
 *
 * The sinks themselves are listed in docs/security.md ("Agent text in the workbench"); an ESLint rule
 * (eslint.config.mjs) flags template literals with interpolations passed straight to those APIs, so a
 * new sink goes through `inert.*` tags or `inertText()`.
 */
import { maskTokens } from './secretMasker';

/** Where the text goes: decides which syntax is neutralised (see the table above). */
export type InertSink = 'message' | 'label' | 'plain' | 'markdown';

/** Default length caps per sink, in characters (code points), ellipsis included. */
export const inertMaxLength: Readonly<Record<InertSink, number>> = { message: 300, label: 120, plain: 200, markdown: 1000 };

/**
 * Characters that are invisible or change how the rest reads: bidi embeddings, overrides, isolates and marks,
 * zero-width characters, invisible operators and formatting characters, the BOM, soft hyphen, Hangul fillers,
 * the Mongolian vowel separator, line and paragraph separators, interlinear annotation marks, Unicode tag
 * characters (used to smuggle invisible instructions), and C0/C1 controls other than line feed and tab.
 */
const invisible = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;
/** A zero-width joiner inside an emoji sequence (👨‍👩‍👧) is part of the emoji, not a spoof. */
const emojiBefore = /\p{Extended_Pictographic}\uFE0F?$/u;
const emojiAfter = /^\p{Extended_Pictographic}/u;

/** `U+202E` for a character. */
export function codePointName(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A run of ordinary text, or one invisible character named by its code point (`U+202E`). */
export type VisibleTextPart = { readonly text: string } | { readonly invisible: string };

/**
 * `text` as runs of ordinary text and single invisible characters, in order: what the chat renders as
 * styled `<U+202E>` markers (webview/views/visibleText.ts) and the workbench sinks as plain markers.
 */
export function visibleTextParts(text: string): VisibleTextPart[] {
  const parts: VisibleTextPart[] = [];
  let run = '';
  let last = 0;
  for (const m of text.matchAll(invisible)) {
    const at = m.index ?? 0;
    run += text.slice(last, at);
    last = at + m[0].length;
    if (m[0] === '\u200D' && emojiBefore.test(text.slice(Math.max(0, at - 3), at)) && emojiAfter.test(text.slice(at + 1, at + 3))) { run += m[0]; continue; }
    if (run) parts.push({ text: run });
    run = '';
    parts.push({ invisible: codePointName(m[0]) });
  }
  run += text.slice(last);
  if (run) parts.push({ text: run });
  return parts;
}

/** Line breaks and tabs as spaces, then every invisible character as a `<U+202E>` marker. */
export function revealInvisible(text: string): string {
  return visibleTextParts(text.replace(/\r\n|[\n\r\u2028\u2029\u0085\t]/g, ' '))
    .map((p) => ('text' in p ? p.text : `<${p.invisible}>`))
    .join('');
}

/** Caps `text` at `max` code points with an ellipsis, never cutting a surrogate pair or a `<U+…>` marker. */
export function capLength(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  let cut = points.slice(0, Math.max(0, max - 1)).join('');
  cut = cut.replace(/<(U(\+[0-9A-F]{0,6})?)?$/, ''); // a marker is never cut in two
  return `${cut}…`;
}

/**
 * Caps `text` at `max` code points with an ellipsis, cut at the last space when that keeps at least half
 * of it (a title shortened at a word boundary).
 */
export function capAtWord(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  const cut = points.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space >= max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
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
  const capped = capLength(revealInvisible((maskHolder[maskerKey] ?? maskTokens)(text)), max);
  switch (sink) {
    case 'message': return breakLinks(capped);
    case 'label': return escapeIcons(capped);
    case 'plain': return capped;
    case 'markdown': return escapeMarkdown(capped);
  }
}

/**
 * The masker lives on the global object, not in this module: a part of the extension bundled on its own and
 * loaded later (esbuild.mjs, lazyModules) has its own copy of this module, and masks with the same secrets.
 */
const maskerKey: unique symbol = Symbol.for('switchboard.secretMasker');
const maskHolder = globalThis as { [maskerKey]?: (text: string) => string };

/**
 * Installs the extension's secret masker (activation): every workbench sink then masks the known secret
 * values as well as token shapes, so an agent's error that echoes its API key never reaches a notification.
 */
export function useSecretMasker(mask: (text: string) => string): void {
  maskHolder[maskerKey] = mask;
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
