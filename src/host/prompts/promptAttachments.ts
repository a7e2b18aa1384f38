/**
 * Turns what the user wrote (text plus attachment chips) into the `ContentBlock[]` of `session/prompt`:
 * files become `resource_link`s, or embedded `resource`s with their text when the agent accepts embedded
 * context (read through the editor, so unsaved changes win; capped in size); selections and images as the
 * agent accepts them (https://agentclientprotocol.com/protocol/content). Only files inside the workspace are read.
 */
import * as vscode from 'vscode';
import type { ContentBlock } from '../../acp/schema/types.gen';
import { embeddedTextMaxChars } from '../../shared/composerModel';
import type { AttachmentView, PromptCapabilitiesView } from '../../shared/composerModel';
import { selectionBlock, uriName } from './promptBlocks';

/** The prompt blocks for a text and its attachments (the text first, as agents expect the request first). */
export async function promptBlocks(text: string, attachments: readonly AttachmentView[], caps: PromptCapabilitiesView): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  if (text.trim()) blocks.push({ type: 'text', text });
  for (const a of attachments) {
    const block = await attachmentBlock(a, caps);
    if (block) blocks.push(block);
  }
  return blocks;
}

async function attachmentBlock(a: AttachmentView, caps: PromptCapabilitiesView): Promise<ContentBlock | undefined> {
  switch (a.kind) {
    case 'image':
      return { type: 'image', data: a.data, mimeType: a.mimeType };
    case 'selection':
      return selectionBlock(a, caps, displayPath(a.uri));
    case 'file': {
      const link: ContentBlock = { type: 'resource_link', uri: a.uri, name: a.name || uriName(a.uri) };
      if (!caps.embeddedContext) return link;
      const text = await readWorkspaceText(a.uri);
      if (text === undefined || text.length > embeddedTextMaxChars) return link;
      return { type: 'resource', resource: { uri: a.uri, text, ...(text ? { mimeType: 'text/plain' } : {}) } };
    }
  }
}

/** The text of a workspace file through the editor (dirty buffers win); undefined if not a readable text file. */
async function readWorkspaceText(uriString: string): Promise<string | undefined> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(uriString, true);
  } catch {
    return undefined;
  }
  if (!vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > embeddedTextMaxChars * 4) return undefined;
    const doc = await vscode.workspace.openTextDocument(uri);
    return doc.getText();
  } catch {
    return undefined; // binary or unreadable: the agent gets a link
  }
}

/** A workspace-relative path for a URI (as the user sees it), else its file-system path. */
export function displayPath(uriString: string): string {
  try {
    const uri = vscode.Uri.parse(uriString, true);
    return vscode.workspace.asRelativePath(uri, false);
  } catch {
    return uriString;
  }
}
