/**
 * The IDN host conversions that markdown-it calls (`toASCII` for a link's target, `toUnicode` for the text
 * it shows), without the punycode.js package in the webview bundle: esbuild.mjs aliases `punycode.js` to
 * this file for the webview build only (docs/performance.md, "Start fast, ship small").
 * - `toASCII` is the browser's URL parser: the WHATWG "domain to ASCII" step, the same IDNA conversion.
 * - `toUnicode` leaves the host as written: a linkified `xn--` host shows as such, never as look-alike
 *   Unicode letters (`xn--pple-43d.com` is not shown as "аpple.com" with a Cyrillic "а").
 * markdown-it keeps the host unchanged when a conversion throws.
 */

/** The ASCII (punycode) form of a host name. */
export function toASCII(host: string): string {
  return new URL(`http://${host}/`).hostname;
}

/** The host as written (see the file header). */
export function toUnicode(host: string): string {
  return host;
}

// eslint-disable-next-line no-restricted-syntax -- markdown-it imports punycode.js's default export, which this file stands in for
export default { toASCII, toUnicode };
