/**
 * Workspace file search for the @-mention picker: `vscode.workspace.findFiles` (which applies
 * `files.exclude`) plus the `search.exclude` globs, capped, listed once and kept for a few seconds, then
 * ranked with a simple fuzzy score on the workspace-relative path.
 */
import * as vscode from 'vscode';
import { fileMatchesMax } from '../shared/composerModel';
import type { FileMatchView } from '../shared/composerModel';
import { fuzzyFilter } from '../shared/fuzzyMatch';

/** Most files listed per search (a huge repository is searched in its first this-many files). */
export const fileListCap = 20_000;
const cacheMs = 5_000;

interface Listed { readonly uri: vscode.Uri; readonly path: string }

let cache: { at: number; files: Promise<Listed[]> } | undefined;

/** The globs of an exclude setting (`files.exclude`, `search.exclude`) that are switched on. */
function excludeGlobs(section: 'files' | 'search'): string[] {
  const excludes = vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {};
  return Object.entries(excludes).filter(([, on]) => on === true).map(([glob]) => glob);
}

async function listFiles(): Promise<Listed[]> {
  // an explicit exclude replaces the default (files.exclude) one, so both settings go into it
  const globs = [...excludeGlobs('files'), ...excludeGlobs('search')];
  const uris = await vscode.workspace.findFiles('**/*', globs.length ? `{${globs.join(',')}}` : undefined, fileListCap);
  return uris.map((uri) => ({ uri, path: vscode.workspace.asRelativePath(uri, true) }));
}

/** The workspace files matching `query`, best first, at most {@link fileMatchesMax}. */
export async function searchWorkspaceFiles(query: string): Promise<FileMatchView[]> {
  if (!cache || Date.now() - cache.at > cacheMs) cache = { at: Date.now(), files: listFiles() };
  let files: Listed[];
  try {
    files = await cache.files;
  } catch {
    cache = undefined;
    return [];
  }
  const ranked = query.trim()
    ? fuzzyFilter(query, files, (f) => f.path, fileMatchesMax)
    : [...files].sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path)).slice(0, fileMatchesMax);
  return ranked.map((f) => {
    const slash = f.path.lastIndexOf('/');
    return { uri: f.uri.toString(), name: slash === -1 ? f.path : f.path.slice(slash + 1), detail: slash === -1 ? '' : f.path.slice(0, slash) };
  });
}
