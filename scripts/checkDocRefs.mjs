#!/usr/bin/env node
// @ts-check
// The doc-reference check (docs/architecture.md, "How it is kept so"), runnable by anyone:
//   node scripts/checkDocRefs.mjs [--root DIR]
// Fails on a reference, in the docs or in a code comment, to a repository path that does not exist or to a
// section of a Markdown page that it does not have. What counts as a reference:
//   - a path from the repository's root in text or comments: `src/…`, `webview/…`, `test/…`, `scripts/…`,
//     `docs/…`, `media/…`; `{a,b}` names each alternative, `*`, `**` and a `<placeholder>` segment must match
//     at least one path;
//   - a Markdown link's target in a .md file (relative to that file; web and mail links aside);
//   - a file's bare name (`chatBinding.ts`, `.ts` and `.mjs`) in docs/, README.md and the comments of src/ and
//     webview/: some file of that name exists (test comments name files of a test's own workspace that way);
//   - a section of a .md page: `docs/<page>.md#anchor` (GitHub's anchors), `(#anchor)` inside a page, and a
//     quoted heading right after the page's path, as comments cite it: `docs/<page>.md, "Heading"`,
//     `docs/<page>.md ("Heading")`, `docs/<page>.md "Heading"` (the quote may run on over a comment's next line).
// Scanned: the comments of src/, webview/, test/, scripts/ and the root's .mjs files (strings are code, not
// references, except a string outside test/ that names `docs/`, as ESLint's messages do), and all of docs/ and
// README.md outside fenced code blocks. Not scanned: CHANGELOG.md and the
// helpers' CHANGES-*.md (history names paths that were right when it was written), generated *.gen.ts, and
// test/fixtures/docRefs/ (this check's own test fixture, dead references on purpose).
// Prints each dead reference as `file:line: …`; exit 1 when there is one.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Top-level entries that are build output, caches or dependencies, never referenced as sources. */
const IGNORED = new Set(['.git', 'node_modules', 'dist', 'out', 'test-results', '.test-results', '.cache', '.tmpprof', '.vscode-test']);
const SCAN_DIRS = ['src', 'webview', 'test', 'scripts', 'docs'];
const SCAN_ROOT_FILES = /^(README\.md|[\w.-]+\.mjs)$/;
const NOT_SCANNED = [/^test\/fixtures\/docRefs\//, /\.gen\.ts$/];
const COMMENTED = /\.(ts|mts|cts|mjs|cjs|js|css|sh)$/;
/** Where a path from the repository's root may start. */
const ROOTS = 'src|webview|test|scripts|docs|media';
// a path: root, then name characters, `*`, `<placeholder>` and `{a,b}` groups; never after a word, a dot or a
// slash (`out/test/…`, URLs, `../`)
const PATH_RE = new RegExp(`(?<![\\w.@/\\\\-])(?:${ROOTS})/(?:[\\w.*<>/-]|\\{[\\w.,*/-]+\\})*`, 'g');
// a quoted heading right after a page's path: `, "X"`, ` ("X"`, ` "X"`
const QUOTED_RE = /^(?:,\s*|\s*\(\s*|\s+)"([^"\n]*(?:\n[^"\n]*)?)"/;
const BARE_RE = /(?<![\w.@/\\$}-])([A-Za-z_][\w-]*(?:\.[\w-]+)*\.(?:ts|mjs))(?![\w/-])/g;
const BARE_NAMES = /^(src\/|webview\/|docs\/|README\.md$)/;
// comments (kept) and strings (blanked out) of a source file; a quote that does not close on its line is code
const JS_TOKENS = /(?<comment>\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\[\s\S]|[^`\\])*`/g;
const CSS_TOKENS = /(?<comment>\/\*[\s\S]*?(?:\*\/|$))|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g;
const SH_TOKENS = /(?<comment>(?:^|(?<=\s))#[^\n]*)|'[^']*'|"(?:\\.|[^"\\])*"/gm;
const LINK_RE = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/**
 * Lists the repository's files and folders (relative, forward slashes), build output and dependencies aside.
 * @param {string} root
 */
function listTree(root) {
  /** @type {Set<string>} */ const files = new Set();
  /** @type {Set<string>} */ const dirs = new Set(['']);
  /** @param {string} rel */
  const walk = (rel) => {
    for (const d of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${d.name}` : d.name;
      if (!rel && IGNORED.has(d.name)) continue;
      if (d.isDirectory()) { dirs.add(child); walk(child); } else if (d.isFile()) files.add(child);
    }
  };
  walk('');
  return { files, dirs };
}

/**
 * The text of a file with everything that is not a comment (or, in Markdown, inside a fenced code block)
 * blanked out: line breaks stay where they were, so a reference's line is its line in the file.
 * @param {string} rel
 * @param {string} text
 */
export function referenceText(rel, text) {
  if (rel.endsWith('.md')) {
    let fenced = false;
    return text.split('\n').map((line) => {
      if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; return ''; }
      return fenced ? '' : line;
    }).join('\n');
  }
  const tokens = rel.endsWith('.sh') ? SH_TOKENS : rel.endsWith('.css') ? CSS_TOKENS : JS_TOKENS;
  const docStrings = !rel.startsWith('test/');
  /** @type {string[]} */ const out = [];
  let last = 0;
  for (const m of text.matchAll(tokens)) {
    const at = m.index ?? 0;
    out.push(blank(text.slice(last, at)));
    // a comment stays (its opening marks blanked); a string goes, unless it cites docs/ outside the tests (a lint
    // or check message that sends the reader to a page)
    if (m.groups?.comment !== undefined) out.push(m[0].replace(/^(\s?)(\/\/|\/\*|#)/, (_, s, mark) => s + ' '.repeat(mark.length)));
    else out.push(docStrings && m[0].includes('docs/') ? m[0] : blank(m[0]));
    last = at + m[0].length;
  }
  out.push(blank(text.slice(last)));
  return out.join('');
}

/** A link target's `%20`s decoded; a malformed escape stays as written (and is then no file). @param {string} s */
function decoded(s) {
  try { return decodeURI(s); } catch { return s; }
}

/** @param {string} s  its line breaks, each stretch between them one space (lines are all that must stay) */
function blank(s) {
  return s.replace(/[^\n]+/g, ' ');
}

/**
 * GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces as hyphens.
 * @param {string} heading  the heading's text without its `#`s
 */
export function anchorOf(heading) {
  return plainHeading(heading).toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** @param {string} heading */
function plainHeading(heading) {
  return heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '').replace(/\s+#+\s*$/, '').trim();
}

/** A quoted heading as written, joined over a comment's line break. @param {string} s */
function joinedTitle(s) {
  return s.replace(/\s*\n\s*(?:\/\/+|\*|#)?\s*/g, ' ').replace(/\s+/g, ' ').trim();
}

/** @param {string} s */
function normalizeTitle(s) {
  return joinedTitle(s).toLowerCase();
}

/**
 * Expands `{a,b}` groups into every alternative.
 * @param {string} ref
 * @returns {string[]}
 */
function expandBraces(ref) {
  const m = /\{([^{}]*)\}/.exec(ref);
  if (!m) return [ref];
  return m[1].split(',').flatMap((alt) => expandBraces(ref.slice(0, m.index) + alt + ref.slice(m.index + m[0].length)));
}

/** @param {string} pattern  a path with `*`, `**` or `<placeholder>` segments */
function globRegExp(pattern) {
  const body = pattern.split(/(\*\*\/?|\*|<[^>/]*>)/).map((part) => {
    if (part === '**/' || part === '**') return '(?:.*/)?[^/]*';
    if (part === '*' || /^<[^>/]*>$/.test(part)) return '[^/]*';
    return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }).join('');
  return new RegExp(`^${body}$`);
}

/**
 * Checks every reference below `root`.
 * @param {string} root
 * @returns {{ dead: { file: string, line: number, ref: string, why: string }[], scanned: number, refs: number }}
 */
export function checkDocRefs(root) {
  const { files, dirs } = listTree(root);
  const basenames = new Set([...files].map((f) => f.slice(f.lastIndexOf('/') + 1)));
  /** @type {Map<string, { anchors: Set<string>, titles: Set<string> }>} */
  const headings = new Map();
  /** @param {string} page */
  const headingsOf = (page) => {
    let h = headings.get(page);
    if (!h) {
      h = { anchors: new Set(), titles: new Set() };
      /** @type {Map<string, number>} */ const seen = new Map();
      for (const line of referenceText(page, fs.readFileSync(path.join(root, page), 'utf8')).split('\n')) {
        const m = /^#{1,6}\s+(.+)$/.exec(line);
        if (!m) continue;
        const base = anchorOf(m[1]);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        h.anchors.add(n ? `${base}-${n}` : base);
        h.titles.add(normalizeTitle(plainHeading(m[1])));
      }
      headings.set(page, h);
    }
    return h;
  };
  /** @param {string} p */
  const exists = (p) => {
    const clean = p.replace(/\/+$/, '');
    if (!/[*<]/.test(clean)) return files.has(clean) || dirs.has(clean);
    const re = globRegExp(clean);
    for (const f of files) if (re.test(f)) return true;
    for (const d of dirs) if (re.test(d)) return true;
    return false;
  };
  /**
   * Why a reference is dead, or undefined when it is alive.
   * @param {string} target  a path from the root, maybe with `#anchor`
   * @param {string | undefined} title  a quoted heading after it
   */
  const deadWhy = (target, title) => {
    const [p, anchor] = target.split('#', 2);
    if (p && !exists(p)) return /[*<]/.test(p) ? 'no file or folder matches' : 'no such file or folder';
    if (anchor === undefined && title === undefined) return undefined;
    if (!p.endsWith('.md') || !files.has(p)) return undefined;
    const h = headingsOf(p);
    if (anchor !== undefined && !h.anchors.has(anchor.toLowerCase())) return `${p} has no heading with the anchor #${anchor}`;
    if (title !== undefined && !h.titles.has(normalizeTitle(title))) return `${p} has no heading "${joinedTitle(title)}"`;
    return undefined;
  };

  /** @type {{ file: string, line: number, ref: string, why: string }[]} */
  const dead = [];
  let scanned = 0;
  let refs = 0;
  const toScan = [...files].filter((f) => (SCAN_DIRS.some((d) => f.startsWith(`${d}/`)) || SCAN_ROOT_FILES.test(f))
    && (f.endsWith('.md') || COMMENTED.test(f)) && !NOT_SCANNED.some((re) => re.test(f))).sort();
  for (const file of toScan) {
    scanned++;
    const text = referenceText(file, fs.readFileSync(path.join(root, file), 'utf8'));
    /** @type {number[]} */ const lineStarts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    /** @param {number} offset */
    const lineOf = (offset) => {
      let lo = 0; let hi = lineStarts.length - 1;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1; }
      return lo + 1;
    };
    /** @type {Set<string>} */ const reported = new Set();
    /** @param {number} offset @param {string} shown @param {string} target @param {string} [title] */
    const check = (offset, shown, target, title) => {
      refs++;
      const why = deadWhy(target, title);
      const line = lineOf(offset);
      const key = `${line}\0${target}\0${title}`;
      if (why && !reported.has(key)) { reported.add(key); dead.push({ file, line, ref: shown, why }); }
    };
    for (const m of text.matchAll(PATH_RE)) {
      const token = m[0].replace(/[.,:;-]+$/, '');
      let end = (m.index ?? 0) + token.length;
      let anchor = '';
      if (token.endsWith('.md') && text[end] === '#') {
        anchor = /^#[\w-]*/.exec(text.slice(end))?.[0] ?? '';
        end += anchor.length;
      }
      const q = token.endsWith('.md') && !anchor ? QUOTED_RE.exec(text.slice(end, end + 200)) : null;
      for (const alt of expandBraces(token)) {
        check(m.index ?? 0, q ? `${alt} "${joinedTitle(q[1])}"` : alt + anchor, alt + anchor, q?.[1]);
      }
    }
    if (BARE_NAMES.test(file)) {
      for (const m of text.matchAll(BARE_RE)) {
        refs++;
        if (!basenames.has(m[1])) dead.push({ file, line: lineOf(m.index ?? 0), ref: m[1], why: 'no file of that name' });
      }
    }
    if (file.endsWith('.md')) {
      for (const m of text.matchAll(LINK_RE)) {
        const target = m[1];
        if (/^[a-z][\w+.-]*:/i.test(target)) continue; // https:, mailto:, vscode: …
        const [p, anchor] = target.split('#', 2);
        const resolved = p ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decoded(p))) : file;
        check(m.index ?? 0, target, anchor === undefined ? resolved : `${resolved}#${anchor}`);
      }
    }
  }
  dead.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return { dead, scanned, refs };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const { values } = parseArgs({ options: { root: { type: 'string' } } });
  const root = path.resolve(values.root ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const { dead, scanned, refs } = checkDocRefs(root);
  for (const d of dead) console.log(`${d.file}:${d.line}: dead reference ${d.ref}: ${d.why}`);
  const ms = Math.round(performance.now() - t0);
  console.log(`checkDocRefs: ${refs} references in ${scanned} files, ${dead.length} dead (${ms} ms)`);
  process.exit(dead.length ? 1 : 0);
}
