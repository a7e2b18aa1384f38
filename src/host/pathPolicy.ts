/**
 * Path checks for the agent's file and terminal requests (no vscode import: unit-tested in plain Node).
 * Paths from the agent are untrusted: they must be absolute, are normalized (`..` resolved), symlinks are
 * resolved to their real path, and the result is checked against the session's roots
 * (`cwd` + `additionalDirectories` + workspace folders), failing closed (acp-client-spec §3.9).
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { AcpError } from '../acp/errors';

/** True when paths compare case-insensitively on this platform (Windows, macOS default volumes). */
const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** Normalizes an absolute path from the agent; a relative path is invalid params (-32602). */
export function normalizeAgentPath(p: string): string {
  if (typeof p !== 'string' || p.length === 0) throw AcpError.invalidParams('path must be a non-empty absolute path');
  if (p.includes('\0')) throw AcpError.invalidParams('path must not contain NUL characters');
  if (!path.isAbsolute(p)) throw AcpError.invalidParams(`path must be absolute (ACP paths are absolute): ${p}`);
  return path.resolve(p);
}

/**
 * The real path of `p`: symlinks resolved for the longest existing prefix, the rest appended (so a file
 * about to be created in a symlinked folder is checked where it will really land).
 */
export async function resolveRealPath(p: string): Promise<string> {
  const rest: string[] = [];
  let current = path.resolve(p);
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(p);
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/** True when `p` is one of `roots` or inside one (both already normalized/real). */
export function isInside(p: string, roots: readonly string[]): boolean {
  const norm = (s: string) => (caseInsensitive ? s.toLowerCase() : s);
  const target = norm(p);
  return roots.some((r) => {
    const root = norm(r);
    if (target === root) return true;
    const rel = path.relative(root, target);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
}

/** The session's roots, deduplicated, each resolved to its real path. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out = await Promise.all(roots.filter((r) => path.isAbsolute(r)).map((r) => resolveRealPath(r)));
  return [...new Set(out)];
}
