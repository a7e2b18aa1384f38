/**
 * The URL of a URL-mode elicitation as the user must see it before opening it
 * (https://agentclientprotocol.com/protocol/v1/elicitation): the full URL, and its origin spelled out (scheme,
 * host and port, the port even when it is the default) so a look-alike host is visible; a host in punycode
 * (international characters) gets a warning. Only http and https are opened: anything else (`command:`,
 * `file:`, `vscode:` …) would act inside the editor, not in a browser.
 */

/** What the chat and the quick input show of an elicitation URL. */
export interface ElicitationUrlView {
  readonly href: string;
  readonly origin: string;
  readonly warning?: string;
}

const defaultPorts: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The URL to show and open, or why it is refused (the request is answered -32602). */
export function elicitationUrl(raw: string): { ok: true; url: ElicitationUrlView } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: 'url is not a valid URL' };
  }
  const port = defaultPorts[url.protocol];
  if (port === undefined) return { ok: false, error: `url must be an http or https URL, not ${url.protocol}` };
  if (url.username || url.password) return { ok: false, error: 'url must not carry a user name or password' };
  const origin = `${url.protocol}//${url.hostname}:${url.port || port}`;
  const punycode = url.hostname.split('.').some((label) => label.startsWith('xn--'));
  return {
    ok: true,
    url: { href: url.href, origin, ...(punycode ? { warning: 'The address has international characters (shown as punycode, "xn--"): it may imitate another site.' } : {}) },
  };
}
