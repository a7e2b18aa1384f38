/**
 * Secret masking (docs/security.md#secrets): a secret must never reach a log, the chat or the transcript
 * store on disk (logs get copied into bug reports). Pure: no vscode, no node built-ins, so unit tests run it in
 * plain node and every layer may use it. What is masked is replaced by {@link redactedMark}; the text around
 * it is kept. The rule:
 *
 * 1. **Known values.** Every value registered with a {@link SecretMasker}: an agent's `env` (settings,
 *    registry install, `env_var` logins in SecretStorage) and the `env` and `headers` values of MCP servers.
 *    They are masked wherever they occur, inside words too, and in their JSON-escaped form (the ACP trace
 *    logs JSON). Values under {@link minSecretLength} characters are not masked: masking `1` or `true`
 *    would garble every line. Their variable names (never the values) are kept so a log can say once that
 *    such values exist ({@link SecretMasker.takeShortNames}).
 * 2. **Token shapes** ({@link maskTokens}), masked wherever they stand alone (not inside a longer word):
 *    - provider keys by their prefix: `sk-` (OpenAI, `sk-ant-` Anthropic), `sk_live_`/`rk_live_` (Stripe),
 *      `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_` (GitHub), `glpat-` (GitLab), `xoxb-`… (Slack),
 *      `AKIA`/`ASIA` (AWS key ids), `AIza` (Google), `ya29.` (Google OAuth), `hf_`, `npm_`, and JWTs
 *      (`eyJ….eyJ….…`), each with a body long enough to be a key (20 characters or more for most);
 *    - the credential after `Bearer`, `Basic` or `Token`, and the value of an `Authorization:` header,
 *      when it is not a plain word ("Bearer authentication" stays);
 *    - a long run next to a key word: an identifier with a segment `key`, `token`, `secret`, `password`,
 *      `passwd`, `pwd`, `credential(s)`, `auth` or a compound such as `apikey`, `accessToken`
 *      (`api_key=…`, `"token": "…"`, `--api-key …`, `MY_API_TOKEN=…`), followed by `=`, `:` or a space and a
 *      run of 16+ base64/hex/url-safe characters with a letter and a digit (or 24+ mixed-case letters).
 *      Only the run is masked: `api_key=***`.
 *
 * Near-misses that are left alone: words that merely contain a key word (`tokenizer`, `keyboard`,
 * `monkey`), git SHAs, UUIDs and base64 that are not next to a key word (`commit 1a2b3c4`, a UUID in a path),
 * file paths after a key word (`key_file=/home/me/.ssh/id_ed25519`: a value starting with `/`, `.` or `~`, or
 * holding both `/` and `.`), and short values.
 */

/** What a masked value is replaced with. */
export const redactedMark = '***';
/** Values shorter than this are not masked (see the module header). */
export const minSecretLength = 6;

// a token stands alone: not preceded by a word character, except the letter of a JSON escape (`\nsk-…`)
const start = String.raw`(?:(?<=\\[nrt])|(?<![A-Za-z0-9_-]))`;
const end = String.raw`(?![A-Za-z0-9_-])`;
const prefixedShapes = [
  String.raw`sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`,
  String.raw`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`,
  String.raw`gh[pousr]_[A-Za-z0-9]{30,}`,
  String.raw`github_pat_[A-Za-z0-9_]{30,}`,
  String.raw`glpat-[A-Za-z0-9_-]{20,}`,
  String.raw`xox[abposr]-[A-Za-z0-9-]{10,}`,
  String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}`,
  String.raw`AIza[A-Za-z0-9_-]{30,}`,
  String.raw`ya29\.[A-Za-z0-9_-]{20,}`,
  String.raw`hf_[A-Za-z0-9]{30,}`,
  String.raw`npm_[A-Za-z0-9]{36}`,
  String.raw`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?`,
];
const prefixed = new RegExp(`${start}(?:${prefixedShapes.join('|')})${end}`, 'g');
// the prefixes alone: a cheap test before the costly one (most text holds none)
const prefixHint = /sk-|[sr]k_|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|AIza|ya29\.|hf_|npm_|eyJ/;
// `Bearer x`, `Basic x`, `Token x`; `Authorization: x` (also JSON-quoted, also escaped inside a JSON string)
const scheme = /\b(Bearer|Basic|Token)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi;
const authorization = /\b((?:Proxy-)?Authorization\\?["']?\s*[:=]\s*\\?["']?)(?!(?:Bearer|Basic|Token)\s)([^\s"'\\,;]{8,})/gi;
// identifier, separator, run; the identifier's segments are checked in code
const assignment = /(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9_.-]{0,63}?)(\\?["']?\s*(?:[:=]>?|\s)\s*\\?["']?)([A-Za-z0-9+/_~.-]{16,}={0,2})/g;
const keyWordHint = /key|token|secret|pass|pwd|auth|credential/i;
const keyWords = new Set([
  'key', 'keys', 'token', 'tokens', 'secret', 'secrets', 'password', 'passwd', 'pwd', 'pass', 'credential', 'credentials', 'auth',
  'apikey', 'apitoken', 'accesskey', 'secretkey', 'privatekey', 'accesstoken', 'authtoken', 'refreshtoken', 'idtoken',
  'sessiontoken', 'bearertoken', 'clientsecret', 'authkey',
]);

/** True for a plain word ("authentication", "Expired"), which is not a credential. */
function plainWord(value: string): boolean {
  return /^[A-Za-z][a-z]*$/.test(value);
}

/** True when an identifier (`api_key`, `accessToken`, `X-Api-Key`, `MY_API_TOKEN`) names a secret. */
export function namesSecret(identifier: string): boolean {
  return identifier.split(/[_.-]+|(?<=[a-z0-9])(?=[A-Z])/).some((s) => keyWords.has(s.toLowerCase()));
}

/** True for a run that looks generated: a letter and a digit, or 24+ mixed-case letters; never a path. */
function looksGenerated(run: string): boolean {
  if (/^[/.~]/.test(run) || (run.includes('/') && run.includes('.'))) return false;
  return (/[A-Za-z]/.test(run) && /[0-9]/.test(run)) || (run.length >= 24 && /[a-z]/.test(run) && /[A-Z]/.test(run));
}

/** `text` with every token shape (rule 2 of the module header) replaced by {@link redactedMark}. */
export function maskTokens(text: string): string {
  let out = prefixHint.test(text) ? text.replace(prefixed, redactedMark) : text;
  out = out.replace(scheme, (m, word: string, space: string, value: string) => (plainWord(value) ? m : `${word}${space}${redactedMark}`));
  out = out.replace(authorization, (m, head: string, value: string) => (plainWord(value) ? m : `${head}${redactedMark}`));
  if (!keyWordHint.test(out)) return out;
  return out.replace(assignment, (m, name: string, sep: string, run: string) => (namesSecret(name) && looksGenerated(run) ? `${name}${sep}${redactedMark}` : m));
}

/** A copy of a JSON-like value with every string (not the keys of objects) passed through `mask`. */
export function maskStrings<T>(value: T, mask: (text: string) => string): T {
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => maskStrings(v, mask)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStrings(v, mask)])) as T;
  }
  return value;
}

/**
 * The secret values to mask (rule 1) plus the token shapes (rule 2). One per extension host: every log
 * channel, the chat's notices and the transcript store use the same one.
 */
export class SecretMasker {
  private readonly _values = new Set<string>();
  private _pattern: RegExp | undefined;
  /** Per scope (an agent id): names of values too short to mask, and whether each was reported. */
  private readonly _short = new Map<string, Map<string, boolean>>();

  /** Adds values to mask (values under {@link minSecretLength} characters are ignored). */
  add(...values: readonly string[]): void {
    let changed = false;
    for (const v of values) {
      if (v.length < minSecretLength || this._values.has(v)) continue;
      this._values.add(v);
      // the JSON-escaped form too, since the ACP trace logs JSON.stringify output
      const escaped = JSON.stringify(v).slice(1, -1);
      if (escaped !== v) this._values.add(escaped);
      changed = true;
    }
    if (changed) this._pattern = undefined;
  }

  /**
   * Adds named values (an environment, MCP headers) of `scope` (an agent id). A value too short to mask is
   * remembered by its name, so the scope's log can say once that it is not masked.
   */
  addNamed(scope: string, values: Readonly<Record<string, string>>): void {
    for (const [name, value] of Object.entries(values)) {
      if (value.length >= minSecretLength) this.add(value);
      else if (value.length > 0) {
        let names = this._short.get(scope);
        if (!names) this._short.set(scope, (names = new Map()));
        if (!names.has(name)) names.set(name, false);
      }
    }
  }

  /** Names of `scope`'s values too short to mask that were not reported yet; they count as reported now. */
  takeShortNames(scope: string): string[] {
    const names = this._short.get(scope);
    if (!names) return [];
    const fresh = [...names].filter(([, told]) => !told).map(([name]) => name);
    for (const n of fresh) names.set(n, true);
    return fresh;
  }

  /** Stops masking these values (after a log out). */
  remove(...values: readonly string[]): void {
    for (const v of values) {
      this._values.delete(v);
      this._values.delete(JSON.stringify(v).slice(1, -1));
    }
    this._pattern = undefined;
  }

  /** Number of masked values (JSON-escaped forms count separately). */
  get size(): number {
    return this._values.size;
  }

  /** `text` with every known value and every token shape replaced by {@link redactedMark}. */
  redact(text: string): string {
    if (this._values.size) {
      // longest first, so a secret that contains another is masked whole
      this._pattern ??= new RegExp([...this._values].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g');
      text = text.replace(this._pattern, redactedMark);
    }
    return maskTokens(text);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
