/**
 * Opens VS Code's diff editor for a diff of a tool call (`diff` content,
 * https://agentclientprotocol.com/protocol/tool-calls; also used by ACP: Review Changes): the old text on the
 * left as a read-only virtual document, the file on the right (or, while the file does not exist yet, the new
 * text as a virtual document too); and a tool call's whole output, read-only (openReadOnlyText).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { statOrUndefined } from './editorFiles';
import { inert, inertText } from '../../shared/inertText';

/** Arguments of `switchboard.openDiff`. */
export interface OpenDiffArgs {
  readonly path: string;
  /** The text before the change; null for a new file. */
  readonly oldText: string | null;
  readonly newText: string;
}

/** The scheme of the read-only virtual documents of the diff editor. */
export const originalScheme = 'switchboard-original';

/** The texts shown by the virtual documents, by URI; dropped when VS Code closes the document. */
class VirtualTexts implements vscode.TextDocumentContentProvider {
  private readonly _texts = new Map<string, string>();
  private _next = 0;

  /** A new virtual document showing `text`, named like `filePath` (so its language is recognized). */
  add(filePath: string, text: string, label: 'before' | 'after' | 'output'): vscode.Uri {
    const uri = vscode.Uri.file(filePath).with({ scheme: originalScheme, query: `${label}=${++this._next}` });
    this._texts.set(uri.toString(), text);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this._texts.get(uri.toString()) ?? '';
  }

  delete(uri: vscode.Uri): void {
    this._texts.delete(uri.toString());
  }

  clear(): void {
    this._texts.clear();
  }
}

/**
 * The texts of the diffs' left sides, one store per extension host: the parts loaded on first use (Review Changes,
 * esbuild.mjs `lazyModules`) each have their own copy of this module, and their diffs must reach the provider
 * registered at activation, so the store lives on `globalThis` (as src/shared/inertText.ts's masker does).
 */
const textsKey: unique symbol = Symbol.for('switchboard.diffTexts');
const texts = ((globalThis as { [textsKey]?: VirtualTexts })[textsKey] ??= new VirtualTexts());

/** Registers what the diff editor needs (the virtual document provider). */
export function registerDiffEditor(_context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(originalScheme, texts),
    vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.scheme === originalScheme) texts.delete(d.uri); }),
    { dispose: () => texts.clear() },
  );
}

/** Checks the arguments (they may come from a webview or a keybinding): an error message, or undefined. */
function invalidArgs(args: unknown): string | undefined {
  const a = args as Partial<Record<keyof OpenDiffArgs, unknown>> | undefined;
  if (typeof a !== 'object' || a === null) return 'Open Diff needs {path, oldText, newText}.';
  if (typeof a.path !== 'string' || !path.isAbsolute(a.path)) return `Open Diff needs an absolute path (got ${JSON.stringify(a.path)}).`;
  if (a.oldText !== null && a.oldText !== undefined && typeof a.oldText !== 'string') return 'Open Diff: oldText must be text or null.';
  if (typeof a.newText !== 'string') return 'Open Diff: newText must be text.';
  return undefined;
}

/**
 * Opens the diff of one file, titled "<name> (agent's change)" (or "(agent's new file)"), as a preview.
 * With `preserveFocus` the focus stays where it is (e.g. in the Review Changes list); `viewColumn` picks the
 * editor group (e.g. beside the chat).
 */
export async function openDiff(args: OpenDiffArgs, options: { preserveFocus?: boolean; viewColumn?: vscode.ViewColumn } = {}): Promise<void> {
  const problem = invalidArgs(args);
  if (problem) {
    void vscode.window.showErrorMessage(inertText(problem, 'message'));
    return;
  }
  const left = texts.add(args.path, args.oldText ?? '', 'before');
  const fileUri = vscode.Uri.file(args.path);
  const exists = await statOrUndefined(fileUri).then((s) => s !== undefined && !(s.type & vscode.FileType.Directory), () => false);
  const right = exists ? fileUri : texts.add(args.path, args.newText, 'after');
  const name = path.basename(args.path);
  const title = args.oldText === null || args.oldText === undefined ? inert.plain`${name} (agent's new file)` : inert.plain`${name} (agent's change)`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: options.preserveFocus ?? false, ...(options.viewColumn !== undefined ? { viewColumn: options.viewColumn } : {}) });
}

/**
 * Opens `text` in a read-only editor titled `name` (a tool call's whole output: Open full output on its card), as a
 * preview in `viewColumn`.
 */
export async function openReadOnlyText(name: string, text: string, viewColumn: vscode.ViewColumn): Promise<void> {
  const uri = texts.add(`/${name.replace(/[\\/]/g, '_')}`, text, 'output');
  await vscode.window.showTextDocument(uri, { preview: true, viewColumn });
}

/**
 * Opens the diff of two versions of a file that both live in checkpoints (a turn's change, a restore's
 * preview): two read-only virtual documents named like the file, titled "<name> (<what>)". A version that
 * does not exist shows empty.
 */
export async function openVersionsDiff(args: { path: string; left: string | undefined; right: string | undefined; what: string }, options: { preserveFocus?: boolean; viewColumn?: vscode.ViewColumn } = {}): Promise<void> {
  const left = texts.add(args.path, args.left ?? '', 'before');
  const right = texts.add(args.path, args.right ?? '', 'after');
  const title = inert.plain`${path.basename(args.path)} (${args.what})`;
  await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: options.preserveFocus ?? false, ...(options.viewColumn !== undefined ? { viewColumn: options.viewColumn } : {}) });
}
