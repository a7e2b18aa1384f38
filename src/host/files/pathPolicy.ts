/**
 * Path checks for the agent's file and terminal requests (no vscode import: unit-tested in plain Node).
 * Paths from the agent are untrusted: they must be absolute, are normalized (`..` resolved), symlinks are
 * resolved to their real path, and the result is checked against the session's roots
 * (`cwd` + `additionalDirectories` + workspace folders), failing closed: a client that mediates file
 * access MUST enforce the session's roots (https://agentclientprotocol.com/protocol/session-setup).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { AcpError } from '../../acp/errors';

/** True when paths compare case-insensitively on this platform (Windows, macOS default volumes). */
export const platformCaseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** At most this many symlinks are followed while resolving one path (as Linux's MAXSYMLINKS). */
const maxSymlinkHops = 40;

/** Normalizes an absolute path from the agent; a relative path is invalid params (-32602). */
export function normalizeAgentPath(p: string): string {
  if (typeof p !== 'string' || p.length === 0) throw AcpError.invalidParams('path must be a non-empty absolute path');
  if (p.includes('\0')) throw AcpError.invalidParams('path must not contain NUL characters');
  if (!path.isAbsolute(p)) throw AcpError.invalidParams(`path must be absolute (ACP paths are absolute): ${p}`);
  return path.resolve(p);
}

/**
 * The real path of `p`: symlinks resolved for the longest existing prefix, the rest appended (so a file
 * about to be created in a symlinked folder is checked where it will really land). A dangling symlink is
 * followed to where its target would be created, so that writing through it cannot escape the roots.
 */
export async function resolveRealPath(p: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(p);
  for (let hops = 0; ;) {
    try {
      const real = await fs.realpath(current);
      return rest.length ? path.join(real, ...[...rest].reverse()) : real;
    } catch {
      const target = await danglingLinkTarget(current);
      if (target !== undefined && hops++ < maxSymlinkHops) {
        current = target;
        continue;
      }
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...[...rest].reverse());
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** Where the symlink `p` points (absolute), when `p` is a symlink; undefined otherwise. */
async function danglingLinkTarget(p: string): Promise<string | undefined> {
  try {
    const st = await fs.lstat(p);
    if (!st.isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(p), await fs.readlink(p));
  } catch {
    return undefined;
  }
}

/** True when two normalized paths name the same file (case-insensitively where the platform is). */
export function samePath(a: string, b: string, caseInsensitive = platformCaseInsensitive): boolean {
  return caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** True when `p` is one of `roots` or inside one (both already normalized/real). */
export function isInside(p: string, roots: readonly string[], caseInsensitive = platformCaseInsensitive): boolean {
  const norm = (s: string) => (caseInsensitive ? s.toLowerCase() : s);
  const target = norm(p);
  return roots.some((r) => {
    const root = norm(r);
    if (target === root) return true;
    const rel = path.relative(root, target);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
  });
}

/** The session's roots, deduplicated, each resolved to its real path. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out = await Promise.all(roots.filter((r) => path.isAbsolute(r)).map((r) => resolveRealPath(r)));
  return [...new Set(out)];
}

/** The setting `switchboard.files.outsideRoots`. */
export type OutsideRootsPolicy = 'ask' | 'allowReads' | 'deny';

/** What an agent does with a file. */
export type FileOperation = 'read' | 'write';

/** What to do with a request for a file outside the session's roots. */
export type OutsideRootsDecision = 'allow' | 'ask' | 'deny';

/** Reads the setting's value, falling back to the default (`ask`) for anything unknown. */
export function parseOutsideRootsPolicy(value: unknown): OutsideRootsPolicy {
  return value === 'allowReads' || value === 'deny' ? value : 'ask';
}

/**
 * The decision for a request outside the roots: `deny` refuses both operations without asking; reads
 * are allowed with `allowReads` or when the user allowed this path earlier in the session; writes always
 * ask (unless denied by the policy).
 */
export function decideOutsideRoots(policy: OutsideRootsPolicy, op: FileOperation, readAllowedBefore: boolean): OutsideRootsDecision {
  if (policy === 'deny') return 'deny';
  if (op === 'write') return 'ask';
  return policy === 'allowReads' || readAllowedBefore ? 'allow' : 'ask';
}
