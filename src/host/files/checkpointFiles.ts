/**
 * How a restore writes files inside VS Code (docs/checkpoints.md): through the file service
 * (`workspace.fs`), so an open editor of a restored file shows the restored text at once, and after asking
 * about unsaved edits in those files.
 */
import * as vscode from 'vscode';
import { clearNonFile, nodeFileWriter, setExecutable } from '../../checkpoints/fileWriter';
import type { FileWriter } from '../../checkpoints/fileWriter';
import { inert } from '../../shared/inertText';
import { fsFailure, replaceDocumentText } from './editorFiles';
import { samePath } from './pathPolicy';
import { decodeText } from './textSlice';

/** Writes through VS Code's file service (links and empty folders through node, which it has no call for). */
export const vscodeFileWriter: FileWriter = {
  async writeFile(file, bytes, executable) {
    await clearNonFile(file);
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), bytes);
    await setExecutable(file, executable);
  },
  symlink: (file, target) => nodeFileWriter.symlink(file, target),
  async remove(file) {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.file(file), { useTrash: false });
    } catch (error) {
      if (fsFailure(error) !== 'notFound') throw error;
    }
  },
  removeEmptyDir: (dir) => nodeFileWriter.removeEmptyDir(dir),
};

/**
 * Editors with unsaved edits in files a restore will write or delete. The user is asked (a modal): Discard
 * makes each editor match its file on disk again (the edit is on its undo stack, so Edit > Undo brings the
 * text back), then the restore writes the files and the editors follow. False when the user cancelled.
 */
export async function settleUnsavedEditors(files: readonly string[]): Promise<boolean> {
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file' && files.some((f) => samePath(f, d.uri.fsPath)));
  if (!dirty.length) return true;
  const names = dirty.map((d) => vscode.workspace.asRelativePath(d.uri, false));
  const answer = await vscode.window.showWarningMessage(
    inert.message`${dirty.length === 1 ? '1 file has' : `${dirty.length} files have`} unsaved edits that the restore would overwrite: ${names.join(', ')}`,
    { modal: true, detail: 'Discard them and restore? (Edit > Undo in the editor brings the discarded text back.)' },
    'Discard and Restore',
  );
  if (answer !== 'Discard and Restore') return false;
  for (const doc of dirty) {
    const onDisk = await vscode.workspace.fs.readFile(doc.uri).then((b) => decodeText(b), () => '');
    await replaceDocumentText(doc, onDisk);
  }
  return true;
}
