/**
 * The host side of links and code blocks in agent Markdown. The webview never navigates: it sends
 * `chat/link/open` with the link's target, and the host decides (linkTarget.ts). A web page opens in the
 * external browser after the user confirms it; a file opens in the editor at its line; anything else is
 * refused. Code blocks: Copy writes the clipboard, Insert at Cursor edits the last active text editor (the
 * chat panel itself has the focus when the button is clicked, so the handler remembers the last one).
 */
import * as vscode from 'vscode';
import { CopyCodeCommand, InsertCodeCommand, OpenLinkCommand } from '../shared/chatProtocol';
import type { IpcDispatcher } from './ipc';
import { languageIdOf, resolveLinkTarget } from './linkTarget';
import { inert } from '../shared/inertText';

/** Opens links and runs code-block actions for one chat panel. */
export class ChatLinkHandler implements vscode.Disposable {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly cwd: string, private readonly log: vscode.LogOutputChannel) {
    this.subscription = vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e) this.lastEditor = e;
    });
  }

  /** Registers the link and code actions with the panel's dispatcher (which validates their params). */
  register(ipc: IpcDispatcher): void {
    const report = (what: string) => (e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      this.log.warn(`${what} failed: ${message}`);
      void vscode.window.showErrorMessage(inert.message`${what} failed: ${message}`);
    };
    ipc.on(OpenLinkCommand, ({ href }) => { this.openLink(href).catch(report('Opening the link')); });
    ipc.on(CopyCodeCommand, ({ code }) => { this.copyCode(code).catch(report('Copying the code')); });
    ipc.on(InsertCodeCommand, ({ code, language }) => { this.insertCode(code, language).catch(report('Inserting the code')); });
  }

  /** Opens a link: web pages after confirmation, files in the editor at the line. */
  async openLink(href: string): Promise<void> {
    const target = resolveLinkTarget(href, this.cwd);
    switch (target.kind) {
      case 'refused':
        this.log.info(`chat link not opened (${target.reason}): ${href.slice(0, 200)}`);
        void vscode.window.showWarningMessage(inert.message`Switchboard does not open ${target.reason}.`);
        return;
      case 'web': {
        const open = 'Open';
        const copy = 'Copy Link';
        const choice = await vscode.window.showInformationMessage('Open this web page in your browser?', { modal: true, detail: target.url }, open, copy);
        if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(target.url, true));
        else if (choice === copy) await vscode.env.clipboard.writeText(target.url);
        return;
      }
      case 'file': {
        const uri = vscode.Uri.file(target.path);
        let stat: vscode.FileStat;
        try {
          stat = await vscode.workspace.fs.stat(uri);
        } catch {
          void vscode.window.showWarningMessage(inert.message`The file ${target.path} does not exist.`);
          return;
        }
        if (stat.type & vscode.FileType.Directory) {
          await vscode.commands.executeCommand('revealInExplorer', uri);
          return;
        }
        if (!(stat.type & vscode.FileType.File)) {
          void vscode.window.showWarningMessage(inert.message`${target.path} is not a file.`);
          return;
        }
        const options: vscode.TextDocumentShowOptions = { viewColumn: vscode.ViewColumn.Beside, preview: true };
        if (target.line) {
          const start = new vscode.Position(target.line - 1, (target.column ?? 1) - 1);
          const end = target.endLine ? new vscode.Position(target.endLine - 1, 0) : start;
          options.selection = new vscode.Range(start, end);
        }
        await vscode.window.showTextDocument(uri, options);
        return;
      }
    }
  }

  /** Writes a code block to the clipboard. */
  async copyCode(code: string): Promise<void> {
    await vscode.env.clipboard.writeText(code);
    vscode.window.setStatusBarMessage('$(check) Code copied', 2000);
  }

  /**
   * Inserts a code block at the cursor (replacing the selections) of the last active text editor; with no
   * editor, opens it in a new untitled document.
   */
  async insertCode(code: string, language?: string): Promise<void> {
    const editor = this.targetEditor();
    if (!editor) {
      const id = languageIdOf(language ?? '');
      const known = id ? (await vscode.languages.getLanguages()).includes(id) : false;
      const doc = await vscode.workspace.openTextDocument({ content: code, language: known ? id : 'plaintext' });
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside });
      return;
    }
    const done = await editor.edit((b) => {
      for (const s of editor.selections) b.replace(s, code);
    });
    if (!done) throw new Error(`${editor.document.uri.fsPath || 'the editor'} cannot be edited`);
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: true });
  }

  /** The last active text editor if it is still open, else a visible one. */
  private targetEditor(): vscode.TextEditor | undefined {
    const visible = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme !== 'output');
    const last = this.lastEditor;
    if (last && !last.document.isClosed) {
      if (visible.includes(last)) return last;
      const same = visible.find((e) => e.document === last.document);
      if (same) return same;
    }
    return vscode.window.activeTextEditor ?? visible[0];
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
