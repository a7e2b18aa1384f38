/**
 * What the editor's MCP tools ask VS Code (docs/editor-tools.md): problems, symbols, definitions, references,
 * hovers, the open editors and the selection, a file as the editor holds it, and text search. Each answers only
 * about files inside the session's roots (checked on the real path, as the agent's fs requests are), and
 * gives text (toolText.ts). Part of the lazily loaded editor tools bundle.
 */
import * as vscode from 'vscode';
import { isInside, realRoots, resolveRealPath } from '../../files/pathPolicy';
import { findOpenDocument } from '../../files/editorFiles';
import type { ToolCall } from './grant';
import { EditorToolError, agentToolPath, capText, numberedLines, place, problemsText, severityNames, shownPath, zeroBased, type ProblemLine, type SeverityName } from './toolText';

/** Throws when the agent cancelled the call. */
export function checkCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new EditorToolError('The call was cancelled.');
}

/** The real path of a file the agent named, refused when it is outside the session's roots. */
export async function insidePath(call: ToolCall, p: string): Promise<string> {
  const real = await resolveRealPath(agentToolPath(call.grant.cwd, p));
  if (!isInside(real, await realRoots(call.grant.roots))) throw new EditorToolError(`${p} is outside the session's folders (${call.grant.roots.join(', ')}).`);
  return real;
}

/** The document of a file inside the roots, the open one (unsaved changes included) or else from disk. */
async function documentAt(call: ToolCall, p: string): Promise<{ doc: vscode.TextDocument; file: string; wasOpen: boolean }> {
  const file = await insidePath(call, p);
  const open = findOpenDocument([file]);
  if (open) return { doc: open, file, wasOpen: true };
  try {
    return { doc: await vscode.workspace.openTextDocument(vscode.Uri.file(file)), file, wasOpen: false };
  } catch (error) {
    throw new EditorToolError(`Cannot open ${shownPath(call.grant.cwd, file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Waits until the language servers report on `uri` (or `ms` pass): a file just opened has no problems yet. */
function diagnosticsSettled(uri: vscode.Uri, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); sub.dispose(); signal.removeEventListener('abort', done); resolve(); };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => { if (e.uris.some((u) => u.toString() === uri.toString())) done(); });
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

/** One of VS Code's diagnostics as the tools list it. */
export const toProblem = (file: string, d: vscode.Diagnostic): ProblemLine => ({
  file, severity: d.severity, start: d.range.start, end: d.range.end, message: d.message, source: d.source,
  code: typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? undefined : String(d.code),
});

/** Problems of one file, or of every file inside the roots; `severity` is the least severe kept. */
export async function diagnostics(call: ToolCall, args: { path?: string; severity?: SeverityName }): Promise<string> {
  const least = severityNames.indexOf(args.severity ?? 'hint');
  const unsaved = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => d.uri.fsPath));
  let problems: ProblemLine[];
  if (args.path) {
    const { doc, file, wasOpen } = await documentAt(call, args.path);
    if (!wasOpen && !vscode.languages.getDiagnostics(doc.uri).length) await diagnosticsSettled(doc.uri, 3000, call.signal);
    problems = vscode.languages.getDiagnostics(doc.uri).map((d) => toProblem(file, d));
    if (doc.isDirty) unsaved.add(file);
  } else {
    const roots = await realRoots(call.grant.roots);
    problems = vscode.languages.getDiagnostics()
      .filter(([uri]) => uri.scheme === 'file' && isInside(uri.fsPath, roots))
      .flatMap(([uri, list]) => list.map((d) => toProblem(uri.fsPath, d)));
  }
  checkCancelled(call.signal);
  return capText(problemsText(call.grant.cwd, problems.filter((p) => p.severity <= least), unsaved), undefined, 'ask for one file or a higher severity');
}

/** The text of a file as the editor holds it, with line numbers; `startLine`/`endLine` (1-based) cut a range. */
export async function readFile(call: ToolCall, args: { path: string; startLine?: number; endLine?: number }): Promise<string> {
  const { doc, file } = await documentAt(call, args.path);
  const slice = numberedLines(doc.getText(), args.startLine, args.endLine);
  const head = `${shownPath(call.grant.cwd, file)}: lines ${slice.from}-${slice.to} of ${slice.total}${doc.isDirty ? ', with unsaved changes (the text as the editor holds it)' : ''}`;
  return capText(`${head}\n${slice.text}`, undefined, 'ask for a line range (startLine, endLine)');
}

const kindName = (k: vscode.SymbolKind) => vscode.SymbolKind[k] ?? 'Symbol';

/** The outline of one file: each symbol with its kind and lines, nested by indentation. */
export async function documentSymbols(call: ToolCall, args: { path: string }): Promise<string> {
  const { doc, file } = await documentAt(call, args.path);
  const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri);
  checkCancelled(call.signal);
  if (!found?.length) return `No symbols in ${shownPath(call.grant.cwd, file)} (no language support for it, or it is still starting).`;
  const lines: string[] = [];
  const walk = (s: vscode.DocumentSymbol, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${kindName(s.kind)} ${s.name}${s.detail ? ` ${s.detail}` : ''}  ${s.range.start.line + 1}-${s.range.end.line + 1}`);
    for (const c of s.children) walk(c, depth + 1);
  };
  for (const s of found) {
    if ('children' in s) walk(s, 0);
    else lines.push(`${kindName(s.kind)} ${s.name}${s.containerName ? ` (in ${s.containerName})` : ''}  ${s.location.range.start.line + 1}`);
  }
  return capText(`${shownPath(call.grant.cwd, file)}\n${lines.join('\n')}`);
}

/** Symbols of the workspace whose names match `query`, inside the roots. */
export async function workspaceSymbols(call: ToolCall, args: { query: string }): Promise<string> {
  const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', args.query);
  checkCancelled(call.signal);
  const roots = await realRoots(call.grant.roots);
  const inside = (found ?? []).filter((s) => s.location.uri.scheme === 'file' && isInside(s.location.uri.fsPath, roots));
  if (!inside.length) return `No symbols match "${args.query}".`;
  return capText(inside.map((s) => `${kindName(s.kind)} ${s.name}${s.containerName ? ` (in ${s.containerName})` : ''}  ${place(call.grant.cwd, s.location.uri.fsPath, s.location.range.start)}`).join('\n'), undefined, 'use a longer query');
}

type Target = { uri: vscode.Uri; range: vscode.Range };
const asTarget = (l: vscode.Location | vscode.LocationLink): Target => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l);

/** Each target as `path:line:column` and the text of its line; targets outside the roots are counted, not shown. */
async function targetsText(call: ToolCall, targets: readonly Target[], what: string): Promise<string> {
  const roots = await realRoots(call.grant.roots);
  const inside = targets.filter((t) => t.uri.scheme === 'file' && isInside(t.uri.fsPath, roots));
  const outside = targets.length - inside.length;
  const docs = new Map<string, vscode.TextDocument>();
  const lines: string[] = [];
  for (const t of inside) {
    checkCancelled(call.signal);
    const key = t.uri.toString();
    if (!docs.has(key) && docs.size < 50) docs.set(key, findOpenDocument([t.uri.fsPath]) ?? await vscode.workspace.openTextDocument(t.uri));
    const text = docs.get(key)?.lineAt(Math.min(t.range.start.line, (docs.get(key)?.lineCount ?? 1) - 1)).text.trim();
    lines.push(`${place(call.grant.cwd, t.uri.fsPath, t.range.start)}${text ? `  ${text.slice(0, 200)}` : ''}`);
  }
  const note = outside ? [`(${outside} more outside the session's folders, e.g. in libraries, not shown)`] : [];
  if (!lines.length) return outside ? `No ${what}s inside the session's folders (${outside} outside them).` : `No ${what}s found.`;
  return capText([`${lines.length} ${what}${lines.length === 1 ? '' : 's'}`, ...note, ...lines].join('\n'), undefined, 'ask about a narrower symbol');
}

/** The position the agent named, in a document inside the roots. */
async function positionAt(call: ToolCall, args: { path: string; line: number; column: number }): Promise<{ doc: vscode.TextDocument; pos: vscode.Position }> {
  const { doc } = await documentAt(call, args.path);
  const p = zeroBased(args.line, args.column);
  if (p.line >= doc.lineCount) throw new EditorToolError(`line ${args.line} is past the end of ${args.path} (${doc.lineCount} lines).`);
  return { doc, pos: new vscode.Position(p.line, p.character) };
}

/** Where the symbol at a position is defined. */
export async function definition(call: ToolCall, args: { path: string; line: number; column: number }): Promise<string> {
  const { doc, pos } = await positionAt(call, args);
  const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | vscode.Location | undefined>('vscode.executeDefinitionProvider', doc.uri, pos);
  return targetsText(call, (Array.isArray(found) ? found : found ? [found] : []).map(asTarget), 'definition');
}

/** Every reference to the symbol at a position. */
export async function references(call: ToolCall, args: { path: string; line: number; column: number }): Promise<string> {
  const { doc, pos } = await positionAt(call, args);
  const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', doc.uri, pos);
  return targetsText(call, found ?? [], 'reference');
}

/** What the editor's hover shows at a position (types, documentation). */
export async function hover(call: ToolCall, args: { path: string; line: number; column: number }): Promise<string> {
  const { doc, pos } = await positionAt(call, args);
  const found = await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', doc.uri, pos);
  checkCancelled(call.signal);
  const parts = (found ?? []).flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : c.value)).filter((t) => t.trim());
  return parts.length ? capText(parts.join('\n\n---\n\n')) : 'Nothing to show at this position.';
}

/** The open editors (tabs) inside the roots, the active one, and its selections with their text. */
export async function openEditors(call: ToolCall): Promise<string> {
  const roots = await realRoots(call.grant.roots);
  const cwd = call.grant.cwd;
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => ({ t, g })))
    .flatMap(({ t, g }) => (t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'file' && isInside(t.input.uri.fsPath, roots)
      ? [`${shownPath(cwd, t.input.uri.fsPath)}${t.isDirty ? ' (unsaved changes)' : ''}${t.isActive && g.isActive ? ' (active)' : ''}${t.isPinned ? ' (pinned)' : ''}`] : []));
  const editor = vscode.window.activeTextEditor;
  const lines = [tabs.length ? `Open editors:\n${tabs.map((t) => `- ${t}`).join('\n')}` : 'No open editors inside the session\'s folders.'];
  if (editor && editor.document.uri.scheme === 'file' && isInside(editor.document.uri.fsPath, roots)) {
    const file = editor.document.uri.fsPath;
    lines.push(`Active editor: ${shownPath(cwd, file)}`);
    for (const s of editor.selections) {
      const range = `${place(cwd, file, s.start)}-${s.end.line + 1}:${s.end.character + 1}`;
      const text = editor.document.getText(s);
      lines.push(s.isEmpty ? `Cursor at ${range.split('-')[0]}` : `Selection ${range}:\n${capText(text, 4096, 'read the file for the rest')}`);
    }
  } else if (editor) {
    lines.push('The active editor is outside the session\'s folders.');
  }
  return capText(lines.join('\n'));
}
