/**
 * The HTML entity decoder that markdown-it calls (`decodeHTML` of the `entities` package), done by the
 * browser's own HTML parser instead of a 50 KB entity table in the webview bundle: esbuild.mjs aliases
 * `entities` to this file for the webview build only (docs/performance.md, "Start fast, ship small").
 * markdown-it passes one matched entity at a time (`&copy;`, `&#x41;`) and keeps the original text when the
 * result is unchanged, exactly as with the package. `<` is escaped first, so the parser never sees markup.
 */
const cache = new Map<string, string>();
const maxCached = 512;
let parser: DOMParser | undefined;

/** Decodes the HTML character references in `text` as a browser does in text content. */
export function decodeHTML(text: string): string {
  if (!text.includes('&')) return text;
  let out = cache.get(text);
  if (out === undefined) {
    parser ??= new DOMParser();
    out = parser.parseFromString(`<!doctype html><body>${text.replace(/</g, '&lt;')}`, 'text/html').body.textContent ?? text;
    if (cache.size < maxCached) cache.set(text, out);
  }
  return out;
}
