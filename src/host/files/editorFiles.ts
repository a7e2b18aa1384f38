/**
 * File operations through the editor, shared by the agent's writes (FsHandler) and the change review
 * (ChangeTracker): an open document is changed with a `WorkspaceEdit` and saved (so Undo works and the
 * user sees it), a file that is not open goes through `workspace.fs`.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AcpError, AcpErrorCodes } from '../../acp/errors';
import { samePath } from './pathPolicy';
import { changedSpan, normalizeEol } from './textDiff';

/** The open text document of one of `paths` (the same file under the names it may have), if any. */
export function findOpenDocument(paths: readonly string[]): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => !d.isClosed && d.uri.scheme === 'file' && paths.some((p) => samePath(d.uri.fsPath, p)));
}

/**
 * The open document of one of `paths` whose text is the file's: one with unsaved edits, or a clean one whose
 * file is still there. VS Code keeps a clean document for a while after its editor closed; once its file is
 * deleted it holds only what the file was, and the file is missing.
 */
export async function findLiveDocument(paths: readonly string[], uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const doc = findOpenDocument(paths);
  if (!doc || doc.isDirty) return doc;
  return (await statOrUndefined(uri)) ? doc : undefined;
}

/** The line break of a document as a string. */
export function documentEol(doc: vscode.TextDocument): '\n' | '\r\n' {
  return doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
}

/**
 * Replaces the text of an open document and saves it. Line breaks become the document's own, as with
 * any text inserted into an editor; only the changed span is replaced, so the cursor and folds elsewhere
 * stay where they are. The edit is on the document's undo stack.
 */
export async function replaceDocumentText(doc: vscode.TextDocument, text: string): Promise<void> {
  const current = doc.getText();
  const next = normalizeEol(text, documentEol(doc));
  const span = changedSpan(current, next);
  if (span) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(span.start), doc.positionAt(span.endA)), next.slice(span.start, span.endB));
    if (!(await vscode.workspace.applyEdit(edit))) {
      throw new AcpError('remote', `VS Code did not apply the edit to ${doc.uri.fsPath} (the editor may be read-only)`, AcpErrorCodes.InternalError);
    }
  }
  if (doc.isDirty && !(await doc.save())) {
    throw new AcpError('remote', `The edit of ${doc.uri.fsPath} was applied in the editor but could not be saved`, AcpErrorCodes.InternalError);
  }
}

/** What kind of failure a `workspace.fs` error is. */
export type FsFailure = 'notFound' | 'isDirectory' | 'notDirectory' | 'noPermissions' | 'exists' | 'other';

/** Classifies an error thrown by `workspace.fs` (a `FileSystemError`, or a Node error with a code). */
export function fsFailure(error: unknown): FsFailure {
  const code = error instanceof vscode.FileSystemError ? error.code : (error as { code?: unknown } | undefined)?.code;
  const text = `${String(code ?? '')} ${error instanceof Error ? `${error.name} ${error.message}` : ''}`;
  if (/FileNotFound|EntryNotFound|ENOENT/.test(text)) return 'notFound';
  if (/FileIsADirectory|EntryIsADirectory|EISDIR/.test(text)) return 'isDirectory';
  if (/FileNotADirectory|EntryNotADirectory|ENOTDIR/.test(text)) return 'notDirectory';
  if (/NoPermissions|EACCES|EPERM/.test(text)) return 'noPermissions';
  if (/FileExists|EntryExists|EEXIST/.test(text)) return 'exists';
  return 'other';
}

/** The stat of a file, or undefined when it does not exist. */
export async function statOrUndefined(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch (error) {
    if (fsFailure(error) === 'notFound') return undefined;
    throw error;
  }
}

/**
 * Creates the folder `dir` and its missing parents. Returns the folders that did not exist, deepest
 * first (so they can be removed again when the change is undone).
 */
export async function createMissingFolders(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    const stat = await statOrUndefined(vscode.Uri.file(current));
    if (stat) {
      if (!(stat.type & vscode.FileType.Directory)) {
        throw AcpError.invalidParams(`Cannot create a file below ${current}: it is a file, not a folder`);
      }
      break;
    }
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  if (missing.length) await vscode.workspace.fs.createDirectory(vscode.Uri.file(dir));
  return missing;
}

/**
 * Deletes a file: through a `WorkspaceEdit` when it is open (the editor closes it or marks it deleted,
 * and Edit > Undo can bring it back), else on disk. A file that is already gone is fine.
 */
export async function deleteFile(uri: vscode.Uri): Promise<void> {
  if (findOpenDocument([uri.fsPath])) {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    if (await vscode.workspace.applyEdit(edit)) return;
  }
  try {
    await vscode.workspace.fs.delete(uri, { useTrash: false });
  } catch (error) {
    if (fsFailure(error) !== 'notFound') throw error;
  }
}

/** Removes a folder if it is empty; returns whether it did. */
export async function removeEmptyFolder(dir: string): Promise<boolean> {
  const uri = vscode.Uri.file(dir);
  try {
    if ((await vscode.workspace.fs.readDirectory(uri)).length > 0) return false;
    await vscode.workspace.fs.delete(uri, { recursive: false, useTrash: false });
    return true;
  } catch {
    return false;
  }
}
