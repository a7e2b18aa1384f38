/**
 * What a snapshot leaves out, besides what the folder's ignore files say: files over the size cap (large
 * binaries), nested git repositories (git would record only their commit, never their files) and files git
 * could not read. They are written to the shadow repository's own `info/exclude` and listed to the user.
 * Pure helpers plus the small state file that remembers them between snapshots.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';

/** Why a file is not in a checkpoint. */
export type SkipReason = 'size' | 'repository' | 'unreadable';

/** A path a checkpoint left out (relative to its root, `/`-separated; a repository's without the trailing `/`). */
export interface SkippedPath {
  readonly path: string;
  readonly reason: SkipReason;
  /** Its size, for `size`. */
  readonly bytes?: number;
}

const stateSchema = z.object({
  v: z.literal(1),
  large: z.record(z.string(), z.number().check(z.nonnegative())),
  nested: z.array(z.string()),
});

/** The skipped paths of one shadow repository, kept in its folder between snapshots (and restarts). */
export interface SkipState {
  /** Files over the cap, with their size when last seen. */
  large: Map<string, number>;
  /** Nested repositories. */
  nested: Set<string>;
}

/** Reads the state file (empty when missing or not valid: the next snapshot finds them again). */
export function readSkipState(file: string): SkipState {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (parsed.success) return { large: new Map(Object.entries(parsed.data.large)), nested: new Set(parsed.data.nested) };
  } catch {
    // missing or torn: start empty
  }
  return { large: new Map(), nested: new Set() };
}

/** Writes the state file (atomically: a temporary file renamed over it). */
export function writeSkipState(file: string, state: SkipState): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ v: 1, large: Object.fromEntries(state.large), nested: [...state.nested].sort() }));
  fs.renameSync(tmp, file);
}

/**
 * A path as a gitignore pattern that matches exactly it, anchored at the root: `\` before the characters
 * gitignore gives a meaning (`\`, `*`, `?`, `[`, a leading `!` or `#`, trailing spaces).
 */
export function exactPattern(rel: string, directory = false): string {
  let p = rel.replace(/[\\*?[]/g, (c) => `\\${c}`);
  p = p.replace(/ +$/, (spaces) => spaces.replace(/ /g, '\\ '));
  return `/${p}${directory ? '/' : ''}`;
}

/** The shadow repository's `info/exclude`: the user's own `.git/info/exclude` (if any), then what we skip. */
export function excludeFile(userExclude: string, state: SkipState): string {
  const lines = ['# written by Switchboard: the folder\'s own .git/info/exclude, then the paths checkpoints skip', userExclude.trimEnd()];
  for (const n of [...state.nested].sort()) lines.push(exactPattern(n, true));
  for (const l of [...state.large.keys()].sort()) lines.push(exactPattern(l));
  return `${lines.filter((l) => l !== '').join('\n')}\n`;
}

/** The user's `<root>/.git/info/exclude`, when the root is a repository's top folder ('' else). Read only. */
export function userExclude(root: string): string {
  try {
    return fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8');
  } catch {
    return '';
  }
}

/**
 * Updates the state for one snapshot: `changed` are the paths git listed as changed or new (`dir/` for a
 * nested repository). Files over `maxFileBytes` become large, large ones that shrank or went away are
 * dropped, and nested repositories that went away too. Returns whether the state changed.
 */
export function updateSkipState(root: string, state: SkipState, changed: readonly string[], maxFileBytes: number): boolean {
  let dirty = false;
  for (const p of changed) {
    if (p.endsWith('/')) {
      const dir = p.slice(0, -1);
      if (!state.nested.has(dir)) { state.nested.add(dir); dirty = true; }
    }
  }
  const candidates = new Set([...changed.filter((p) => !p.endsWith('/')), ...state.large.keys()]);
  for (const p of candidates) {
    const size = fileSize(path.join(root, p));
    if (size !== undefined && size > maxFileBytes) {
      if (state.large.get(p) !== size) { state.large.set(p, size); dirty = true; }
    } else if (state.large.delete(p)) dirty = true;
  }
  for (const n of state.nested) {
    if (!isDirectory(path.join(root, n))) { state.nested.delete(n); dirty = true; }
  }
  return dirty;
}

/** The skipped paths as a checkpoint lists them. */
export function skippedPaths(state: SkipState, unreadable: readonly string[] = []): SkippedPath[] {
  return [
    ...[...state.large].map(([p, bytes]) => ({ path: p, reason: 'size' as const, bytes })),
    ...[...state.nested].map((p) => ({ path: p, reason: 'repository' as const })),
    ...unreadable.map((p) => ({ path: p, reason: 'unreadable' as const })),
  ].sort((a, b) => a.path.localeCompare(b.path));
}

/** The paths `git add --ignore-errors` could not read, from its stderr. */
export function unreadablePaths(stderr: string): string[] {
  const out = new Set<string>();
  for (const m of stderr.matchAll(/^error: (?:open\("(.+)"\)|unable to index file '(.+)'|read error while indexing (.+))/gm)) out.add(m[1] ?? m[2] ?? m[3]);
  return [...out];
}

function fileSize(p: string): number | undefined {
  try {
    const st = fs.lstatSync(p);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}
