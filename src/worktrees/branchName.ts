/**
 * Names for a session's worktree: its branch (from the session's title or first prompt) and the folders
 * Switchboard keeps worktrees in. A branch name is checked the way `git check-ref-format` would: no control
 * characters, spaces or `~^:?*[\`, no `..` or `@{`, no component that starts with `.` or ends with `.lock`,
 * no leading `-` (git would read an option).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';

/** Letters that NFKD does not take apart into an ASCII letter and marks. */
const spelled: Readonly<Record<string, string>> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ħ: 'h', ŋ: 'ng', ĸ: 'k',
};

const maxWords = 6;
const maxChars = 40;

/**
 * A lower-case ASCII slug of the first words of `text` (at most 6 words and 40 characters): accents dropped,
 * letters without an ASCII form dropped; '' when nothing is left.
 */
export function slugOf(text: string): string {
  const ascii = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
    .replace(/['\u2019]/g, '') // don't → dont
    .replace(/[^\x00-\x7f]/g, (c) => spelled[c] ?? ' ');
  const words = ascii.split(/[^a-z0-9]+/).filter(Boolean).slice(0, maxWords);
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > maxChars) {
      if (!slug) slug = w.slice(0, maxChars);
      break;
    }
    slug = next;
  }
  return slug;
}

/** `name` made a valid branch name (see the top of this file); `fallback` when nothing is left of it. */
export function validBranch(name: string, fallback = 'session'): string {
  const cleaned = name
    .replace(/[\x00-\x20\x7f~^:?*[\\]+/g, '-')
    .replace(/@\{/g, '-')
    .replace(/\.{2,}/g, '.')
    .split('/')
    .map((c) => c.replace(/^[.-]+/, '').replace(/(\.lock|\.)+$/i, ''))
    .filter(Boolean)
    .join('/');
  return cleaned && cleaned !== '@' ? cleaned : fallback;
}

/** The branch for a session whose title or first prompt is `text`: `switchboard/fix-the-login-bug`. */
export function branchFor(text: string, prefix = 'switchboard/'): string {
  return validBranch(`${prefix}${slugOf(text) || 'session'}`);
}

/** The folder name of a worktree on `branch`: `switchboard-fix-the-login-bug`. */
export function worktreeFolderName(branch: string): string {
  return branch.replace(/\//g, '-');
}

/** The folder for the worktrees of repository `top`: its name and 8 hex of a hash of its full path. */
export function repoFolderName(top: string): string {
  const full = path.resolve(top);
  const base = path.basename(full).replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '') || 'repo';
  return `${base}-${createHash('sha1').update(full).digest('hex').slice(0, 8)}`;
}
