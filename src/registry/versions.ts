/**
 * Version logic of installed registry agents: semver comparison, pinning npx/uvx package specs to the
 * registry version, and whether an update is offered.
 */

interface ParsedVersion { readonly core: readonly number[]; readonly pre: readonly string[] }

function parseVersion(v: string): ParsedVersion {
  const [main = '', ...rest] = v.trim().replace(/^v/, '').split('+')[0]!.split('-');
  return { core: main.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: rest.join('-') ? rest.join('-').split('.') : [] };
}

/** Compares two semantic versions: negative when a < b, 0 when equal (build metadata ignored), positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < Math.max(x.core.length, y.core.length, 3); i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  // a release is newer than its pre-releases
  if (!x.pre.length || !y.pre.length) return Math.sign(y.pre.length - x.pre.length);
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

const distTags = new Set(['latest', 'next', 'beta', 'alpha', 'canary', 'rc', 'stable', 'nightly']);

/**
 * The npm package spec to run: `name@version`. An explicit version or range already in the spec
 * (`pkg@1.4.0`, `pkg@^1`) is respected; a dist-tag (`pkg@latest`) or no version is pinned to `version`.
 */
export function pinNpmPackage(spec: string, version: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  if (at === -1) return `${spec}@${version}`;
  const name = spec.slice(0, at);
  const current = spec.slice(at + 1);
  return current === '' || distTags.has(current) ? `${name}@${version}` : spec;
}

/**
 * The uvx package spec to run: `name@version` (uv's `--from`-less shorthand). A version already given
 * (`pkg==1.2`, `pkg>=1`, `pkg@1.2`) is respected; `pkg@latest` or a bare name is pinned to `version`.
 */
export function pinUvxPackage(spec: string, version: string): string {
  if (/[=<>~!]/.test(spec)) return spec;
  const at = spec.indexOf('@');
  if (at === -1) return `${spec}@${version}`;
  const current = spec.slice(at + 1);
  return current === '' || current === 'latest' ? `${spec.slice(0, at)}@${version}` : spec;
}

/** What the manage/browse UI says about an agent. */
export type UpdateState = 'notInstalled' | 'upToDate' | 'updateAvailable' | 'pinned' | 'newerInstalled';

/** Compares what is installed with the registry. A pinned agent is never offered updates. */
export function updateState(installed: { readonly version: string; readonly pinned: boolean } | undefined, registryVersion: string | undefined): UpdateState {
  if (!installed) return 'notInstalled';
  if (installed.pinned) return 'pinned';
  if (registryVersion === undefined) return 'upToDate';
  const c = compareVersions(installed.version, registryVersion);
  return c < 0 ? 'updateAvailable' : c > 0 ? 'newerInstalled' : 'upToDate';
}
