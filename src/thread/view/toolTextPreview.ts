/**
 * The preview of a long text in a tool call's card (pure; docs/chat.md "Long tool output"): a text of a few
 * megabytes costs the chat what its preview does (the wire to the webview, its layout), while the whole text stays
 * in the thread and the transcript, and the card's Open full output shows it in a read-only editor.
 */
import type { ToolOutputPart } from '../../shared/chatProtocol';
import type { RawTextView } from '../../shared/rawOutputModel';
import type { ToolTextCut } from '../../shared/viewModel';
import { terminalTailStart } from '../../shared/terminalTail';
import type { ToolCallEntry } from '../model/toolCall';
import { prettyJson, rawOutputFullText } from './rawOutput';

/** A text longer than this is previewed (its head and its tail); a shorter one is shown whole. */
export const toolTextPreviewMinChars = 64 * 1024;
/** Characters of the head and of the tail a preview keeps (each about 200 lines). */
export const toolTextPreviewChars = 16 * 1024;

/** How far before the head's cut a line end is looked for (so that the head ends with a whole line). */
const lineSearchChars = 4096;

/** The head and the tail of `text` when it is long enough to be previewed, else undefined (shown whole). */
export function previewToolText(text: string): { readonly head: string; readonly cut: ToolTextCut } | undefined {
  if (text.length <= toolTextPreviewMinChars) return undefined;
  const headEnd = headCut(text, toolTextPreviewChars);
  const tailStart = terminalTailStart(text, toolTextPreviewChars);
  return { head: text.slice(0, headEnd), cut: { omittedChars: tailStart - headEnd, totalChars: text.length, tail: text.slice(tailStart) } };
}

/** Where the head of `text` ends when it keeps at most `max` characters: after a line end when one is near, never inside a surrogate pair. */
function headCut(text: string, max: number): number {
  const newline = text.lastIndexOf('\n', max - 1);
  if (newline !== -1 && max - newline <= lineSearchChars) return newline + 1;
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

/**
 * The whole text of a capped part of a tool call's card (Open full output), read from the thread (the webview names
 * the part, never sends text); undefined when there is none.
 */
export function toolOutputText(call: ToolCallEntry, p: { readonly part: ToolOutputPart; readonly index?: number; readonly label?: RawTextView['label'] }): string | undefined {
  switch (p.part) {
    case 'content': {
      const item = call.content[p.index ?? -1];
      return item?.type === 'content' && item.content.type === 'text' ? item.content.text : undefined;
    }
    case 'rawText': return p.label ? rawOutputFullText(call.rawOutput, call.content.length > 0, p.label) : undefined;
    case 'rawJson': return rawOutputFullText(call.rawOutput, call.content.length > 0);
    case 'rawInput': return call.rawInput === undefined ? undefined : prettyJson(call.rawInput);
  }
}
