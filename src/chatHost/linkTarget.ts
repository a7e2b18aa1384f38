/**
 * What a link in agent Markdown points at, decided on the host (the webview only passes the `data-href` it
 * rendered): a web page (http/https), a file with an optional line (absolute path, `file:` URL, or a path
 * relative to the session folder; `#L12`, `#L12-L20`, `#L12C3`, `:12`, `:12:3`), or nothing we open. No
 * vscode here: unit-tested in plain node.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The longest href the host looks at. */
export const maxHrefLength = 8192;

/** Where a link goes. Lines and columns are 1-based. */
export type LinkTarget =
  | { readonly kind: 'web'; readonly url: string }
  | { readonly kind: 'file'; readonly path: string; readonly line?: number; readonly column?: number; readonly endLine?: number }
  | { readonly kind: 'refused'; readonly reason: string };

interface Position { line?: number; column?: number; endLine?: number }

/** `L12`, `L12C3`, `L12-L20`, `L12-20`, `12` (a fragment) → a position; undefined if it is not one. */
function fragmentPosition(fragment: string): Position | undefined {
  const m = /^L?(\d{1,9})(?:C(\d{1,9}))?(?:-L?(\d{1,9})(?:C\d{1,9})?)?$/i.exec(fragment);
  if (!m) return undefined;
  return positionOf(m[1], m[2], m[3]);
}

function positionOf(line: string | undefined, column?: string, endLine?: string): Position {
  const p: Position = {};
  const l = Number(line);
  if (l > 0) p.line = l;
  const c = Number(column);
  if (column && c > 0) p.column = c;
  const e = Number(endLine);
  if (endLine && e >= l) p.endLine = e;
  return p;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function fileTarget(p: string, pos: Position): LinkTarget {
  if (!p) return { kind: 'refused', reason: 'an empty path' };
  if (p.includes('\0')) return { kind: 'refused', reason: 'a path with a NUL character' };
  return { kind: 'file', path: p, ...pos };
}

/**
 * Resolves a link's href against the session folder `cwd`. `pathApi` is `path.posix` or `path.win32` (the
 * host's by default).
 */
export function resolveLinkTarget(href: string, cwd: string, pathApi: path.PlatformPath = path): LinkTarget {
  const h = href.trim();
  if (!h) return { kind: 'refused', reason: 'an empty link' };
  if (h.length > maxHrefLength) return { kind: 'refused', reason: 'a link that is too long' };
  if (/^https?:/i.test(h)) {
    let url: URL;
    try {
      url = new URL(h);
    } catch {
      return { kind: 'refused', reason: 'a malformed web address' };
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return { kind: 'refused', reason: 'a malformed web address' };
    return { kind: 'web', url: url.href };
  }
  if (/^file:/i.test(h)) {
    let url: URL;
    try {
      url = new URL(h);
    } catch {
      return { kind: 'refused', reason: 'a malformed file URL' };
    }
    const pos = fragmentPosition(url.hash.slice(1)) ?? {};
    url.hash = '';
    url.search = '';
    let file: string;
    try {
      file = fileURLToPath(url, { windows: pathApi === path.win32 });
    } catch {
      return { kind: 'refused', reason: 'a file URL of another machine' };
    }
    return fileTarget(file, pos);
  }
  const drive = /^[a-z]:[\\/]/i.test(h);
  if (!drive && /^[a-z][a-z0-9+.-]*:/i.test(h)) return { kind: 'refused', reason: `a ${h.slice(0, h.indexOf(':') + 1)} link` };
  if (h.startsWith('//') || h.startsWith('\\\\')) return { kind: 'refused', reason: 'a network path' };

  // a path: absolute, or relative to the session folder; a #fragment or :line suffix gives the position
  let rest = h;
  let pos: Position = {};
  const hash = rest.indexOf('#');
  if (hash !== -1) {
    pos = fragmentPosition(rest.slice(hash + 1)) ?? {};
    rest = rest.slice(0, hash);
  }
  rest = decode(rest);
  const suffix = /^(.*?):(\d{1,9})(?::(\d{1,9}))?(?:-(\d{1,9}))?$/.exec(rest);
  if (suffix && suffix[1] && !/^[a-z]$/i.test(suffix[1])) {
    rest = suffix[1];
    pos = { ...positionOf(suffix[2], suffix[3], suffix[4]), ...pos };
  }
  if (!rest) return { kind: 'refused', reason: 'a link to nothing' };
  return fileTarget(pathApi.isAbsolute(rest) ? pathApi.normalize(rest) : pathApi.resolve(cwd, rest), pos);
}

/** The VS Code language id for a fence's language label (`ts` → `typescript`); undefined if unknown. */
export function languageIdOf(label: string): string | undefined {
  const l = label.toLowerCase();
  const aliases: Record<string, string> = {
    ts: 'typescript', tsx: 'typescriptreact', js: 'javascript', jsx: 'javascriptreact', mjs: 'javascript', cjs: 'javascript',
    py: 'python', rb: 'ruby', rs: 'rust', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', shell: 'shellscript',
    console: 'shellscript', ps1: 'powershell', pwsh: 'powershell', yml: 'yaml', md: 'markdown', 'c++': 'cpp', cc: 'cpp',
    hpp: 'cpp', h: 'c', cs: 'csharp', 'c#': 'csharp', kt: 'kotlin', golang: 'go', text: 'plaintext', txt: 'plaintext',
    dockerfile: 'dockerfile', jsonc: 'jsonc', json5: 'json', html: 'html', xml: 'xml', svg: 'xml',
  };
  return aliases[l] ?? (l ? l : undefined);
}
