/**
 * Path-safety rules for archive entries (zip-slip / tar-slip): an entry is refused when its name is absolute,
 * has a `..` segment, or a drive letter, when a link points outside the extraction root, or when it would be
 * written through a link. One bad entry refuses the whole archive.
 */
import * as path from 'node:path';
import { typedError } from '../shared/typedError';

/** The kinds of archive entries we accept; everything else (devices, FIFOs …) is refused. */
export type ArchiveEntryKind = 'file' | 'directory' | 'symlink' | 'hardlink';

/** One entry as listed from the archive, before anything is written. */
export interface ArchiveEntryInfo {
  /** The entry name as stored in the archive. */
  readonly name: string;
  readonly kind: ArchiveEntryKind | 'other';
  /** For links: the stored target (symlinks: relative to the link's folder; tar hardlinks: an archive path). */
  readonly linkTarget?: string;
  /** Uncompressed size in bytes. */
  readonly size: number;
}

/** Why an archive was refused. */
export type ArchiveErrorReason = 'unsafePath' | 'unsafeLink' | 'unsupportedEntry' | 'tooLarge' | 'corrupt' | 'unsupportedFormat';

/** The archive is refused or broken; nothing was left on disk. */
export class ArchiveError extends typedError('ArchiveError') {

  constructor(readonly reason: ArchiveErrorReason, message: string) {
    super(message);
  }
}

/**
 * The entry's path relative to the root, `/`-separated and without `.` segments, or undefined when the
 * name is unsafe: absolute (`/x`, `\x`, `C:x`), containing a `..` segment or a NUL byte, or empty.
 */
export function safeRelativePath(name: string): string | undefined {
  if (name.includes('\0')) return undefined;
  const unified = name.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified)) return undefined;
  const parts = unified.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) return undefined;
  return parts.length ? parts.join('/') : undefined;
}

/** True when a symlink stored at `entryPath` (safe, relative) pointing to `target` stays inside the root. */
export function isSafeSymlink(entryPath: string, target: string): boolean {
  if (!target || target.includes('\0')) return false;
  const unified = target.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-zA-Z]:/.test(unified)) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(entryPath), unified));
  return resolved !== '..' && !resolved.startsWith('../') && resolved !== '.';
}

/**
 * Checks every entry before anything is extracted.
 * @param maxBytes the most the archive may unpack to (zip bombs)
 * @throws ArchiveError naming the first bad entry
 */
export function checkArchiveEntries(entries: readonly ArchiveEntryInfo[], maxBytes: number): void {
  const links = new Set<string>();
  let total = 0;
  for (const e of entries) {
    const rel = safeRelativePath(e.name);
    if (rel === undefined) throw new ArchiveError('unsafePath', `the archive entry "${e.name}" would be written outside the install folder (absolute path or ".."): the archive was refused`);
    if (e.kind === 'other') throw new ArchiveError('unsupportedEntry', `the archive entry "${e.name}" is not a file, folder or link: the archive was refused`);
    if (e.kind === 'symlink' && !isSafeSymlink(rel, e.linkTarget ?? '')) {
      throw new ArchiveError('unsafeLink', `the archive entry "${e.name}" links to "${e.linkTarget ?? ''}", outside the install folder: the archive was refused`);
    }
    if (e.kind === 'hardlink' && safeRelativePath(e.linkTarget ?? '') === undefined) {
      throw new ArchiveError('unsafeLink', `the archive entry "${e.name}" is a hard link to "${e.linkTarget ?? ''}", outside the install folder: the archive was refused`);
    }
    if (e.kind === 'symlink') links.add(rel);
    total += Math.max(0, e.size);
    if (total > maxBytes) throw new ArchiveError('tooLarge', `the archive unpacks to more than ${Math.round(maxBytes / 1048576)} MB: refused`);
  }
  // writing through a link could land anywhere the link resolves to at run time
  for (const e of entries) {
    const rel = safeRelativePath(e.name)!;
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (links.has(prefix)) throw new ArchiveError('unsafeLink', `the archive entry "${e.name}" is written through the link "${prefix}": the archive was refused`);
    }
  }
}

/** True when `child` (absolute) is `root` or inside it. */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
