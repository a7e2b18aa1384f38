/**
 * The search tool (docs/editor-tools.md): text search in the session's folders as VS Code's own search does it,
 * with the ripgrep that ships inside VS Code, respecting `.gitignore`, `files.exclude` and `search.exclude`; a
 * file with unsaved changes is searched as the editor holds it. Without that ripgrep (an unusual build), the
 * files VS Code's `findFiles` lists are read instead, and the answer says `.gitignore` was not applied.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isInside, realRoots } from '../../files/pathPolicy';
import type { ToolCall } from './grant';
import { EditorToolError, capText, shownPath } from './toolText';

export interface SearchArgs {
  readonly query: string;
  readonly isRegex?: boolean;
  readonly caseSensitive?: boolean;
  /** A glob of the files to search, e.g. `src/**\/*.ts`. */
  readonly include?: string;
  readonly maxResults?: number;
}

interface Hit { readonly file: string; readonly line: number; readonly column: number; readonly text: string }

/** ripgrep inside VS Code's own installation (its location differs between builds). */
function bundledRipgrep(): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const root = vscode.env.appRoot;
  const candidates = ['node_modules', 'node_modules.asar.unpacked'].flatMap((nm) => [
    path.join(root, nm, '@vscode', 'ripgrep', 'bin', exe),
    path.join(root, nm, '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),
  ]);
  return candidates.find((c) => fs.existsSync(c));
}

/** The globs excluded by `files.exclude` and `search.exclude` (those set to true). */
function excludedGlobs(): string[] {
  const read = (section: string) => Object.entries(vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {})
    .filter(([, on]) => on === true).map(([glob]) => glob);
  return [...new Set([...read('files'), ...read('search')])];
}

function matcher(args: SearchArgs): RegExp {
  try {
    const source = args.isRegex ? args.query : args.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(source, args.caseSensitive ? 'g' : 'gi');
  } catch (error) {
    throw new EditorToolError(`The query is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Hits of `re` in a text, one per line, at most `max`. */
function searchText(file: string, text: string, re: RegExp, max: number): Hit[] {
  const hits: Hit[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    re.lastIndex = 0;
    const m = re.exec(lines[i]);
    if (m) hits.push({ file, line: i + 1, column: m.index + 1, text: lines[i] });
  }
  return hits;
}

/** Runs ripgrep over the roots; stops at `max` hits or when the call is cancelled. */
function ripgrep(rg: string, call: ToolCall, roots: readonly string[], args: SearchArgs, max: number): Promise<Hit[]> {
  const argv = ['--line-number', '--column', '--no-heading', '--color', 'never', '--max-columns', '400', '--max-columns-preview', '--null',
    ...(args.caseSensitive ? ['--case-sensitive'] : ['--ignore-case']), ...(args.isRegex ? [] : ['--fixed-strings']),
    ...(args.include ? ['--glob', args.include] : []), ...excludedGlobs().flatMap((g) => ['--glob', `!${g}`]), '-e', args.query, '--', ...roots];
  return new Promise((resolve, reject) => {
    const child = spawn(rg, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const hits: Hit[] = [];
    let rest = '';
    let stderr = '';
    const stop = () => child.kill();
    call.signal.addEventListener('abort', stop);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const nul = line.indexOf('\0');
        const m = /^(\d+):(\d+):(.*)$/s.exec(line.slice(nul + 1));
        if (nul > 0 && m && hits.length < max) hits.push({ file: line.slice(0, nul), line: Number(m[1]), column: Number(m[2]), text: m[3] });
      }
      if (hits.length >= max) stop();
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    child.on('error', reject);
    child.on('close', (code) => {
      call.signal.removeEventListener('abort', stop);
      if (call.signal.aborted) reject(new EditorToolError('The call was cancelled.'));
      else if (code === 2 && !hits.length) reject(new EditorToolError(`The search failed: ${stderr.trim().split('\n')[0] ?? 'ripgrep error'}`));
      else resolve(hits);
    });
  });
}

/** Reads the files `findFiles` lists (files.exclude applied, .gitignore not). */
async function scanFiles(call: ToolCall, roots: readonly string[], args: SearchArgs, max: number): Promise<Hit[]> {
  const re = matcher(args);
  const hits: Hit[] = [];
  for (const root of roots) {
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(root, args.include ?? '**/*'), undefined, 5000);
    for (const uri of files) {
      if (call.signal.aborted || hits.length >= max) return hits;
      const text = await fs.promises.readFile(uri.fsPath, 'utf8').catch(() => '');
      if (!text.includes('\0')) hits.push(...searchText(uri.fsPath, text, re, max - hits.length));
    }
  }
  return hits;
}

/** The search tool: `path:line:column  text` per hit, files with unsaved changes searched as the editor holds them. */
export async function searchWorkspace(call: ToolCall, args: SearchArgs): Promise<string> {
  if (!args.query) throw new EditorToolError('query must not be empty');
  const max = Math.min(Math.max(1, Math.floor(args.maxResults ?? 100)), 500);
  const roots = await realRoots(call.grant.roots);
  const re = matcher(args);
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && isInside(d.uri.fsPath, roots));
  const dirtyFiles = new Set(dirty.map((d) => d.uri.fsPath));
  const rg = bundledRipgrep();
  const onDisk = rg ? await ripgrep(rg, call, roots, args, max + dirtyFiles.size * 50) : await scanFiles(call, roots, args, max);
  const inBuffers = dirty.flatMap((d) => searchText(d.uri.fsPath, d.getText(), re, max));
  const hits = [...inBuffers, ...onDisk.filter((h) => !dirtyFiles.has(h.file))].slice(0, max);
  const cwd = call.grant.cwd;
  const head = hits.length ? `${hits.length}${hits.length === max ? '+' : ''} match${hits.length === 1 ? '' : 'es'}${hits.length === max ? ` (the first ${max}; raise maxResults or narrow the query)` : ''}` : `No matches for "${args.query}".`;
  const note = rg ? [] : ['(searched without .gitignore: VS Code\'s ripgrep was not found)'];
  return capText([head, ...note, ...hits.map((h) => `${shownPath(cwd, h.file)}:${h.line}:${h.column}  ${h.text.trim().slice(0, 300)}`)].join('\n'), undefined, 'narrow the query or the include glob');
}
