/**
 * The per-message actions of the chat, on the thread's entries (pure: no vscode, unit-tested in plain node):
 * what Copy copies (a message as Markdown), which prompt Retry sends again (the user message that produced
 * the answer), and what Edit & Resend sends (the edited text with the message's other blocks; for an earlier
 * message, after the context of the turns before it).
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import type { ThreadEntry, UserEntry } from '../model/thread';
import { continuationContext } from './continuationContext';
import { toMarkdown } from './toMarkdown';

/** A message's text for the clipboard: an answer as its Markdown, a user message as written; undefined for other entries. */
export function messageMarkdown(entries: readonly ThreadEntry[], entryId: string): string | undefined {
  const entry = entries.find((e) => e.id === entryId);
  if (entry?.kind !== 'agent' && entry?.kind !== 'user') return undefined;
  // one entry, without the speaker heading toMarkdown puts first
  return toMarkdown([entry]).replace(/^## (?:User|Agent)\n\n/, '').replace(/\n$/, '');
}

/** The prompt that produced the answer `entryId` (the user message before it), or why there is none. */
export function promptOfAnswer(entries: readonly ThreadEntry[], entryId: string): { readonly prompt: ContentBlock[] } | { readonly error: string } {
  const index = entries.findIndex((e) => e.id === entryId);
  if (index === -1 || entries[index].kind !== 'agent') return { error: 'This answer is no longer in the chat.' };
  for (let i = index - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind === 'user') return { prompt: [...e.content] };
  }
  return { error: 'The prompt of this answer is not in the chat.' };
}

/** The newest user message, if any. */
export function latestUserMessage(entries: readonly ThreadEntry[]): UserEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind === 'user') return e;
  }
  return undefined;
}

/**
 * The prompt Edit & Resend sends: `text` in place of the message's typed text (its first block), its other
 * blocks (files, selections, images) kept. Only the newest user message can be edited.
 */
export function editedPrompt(entries: readonly ThreadEntry[], entryId: string, text: string): { readonly prompt: ContentBlock[] } | { readonly error: string } {
  const latest = latestUserMessage(entries);
  if (!latest || latest.id !== entryId) return { error: 'Only your latest message can be edited and sent again.' };
  // the typed text is the first block (promptBlocks); attachments follow, a selection may be a text block too
  const [first, ...rest] = latest.content;
  const prompt: ContentBlock[] = first?.type === 'text' ? [{ type: 'text', text }, ...rest] : [{ type: 'text', text }, ...latest.content];
  return { prompt };
}

/**
 * The first prompt of the session that Edit & Resend of an earlier message (the entry at `index`) goes on
 * in: the compact context of the turns before it (continuationContext.ts; the files their "Changed in this
 * turn" entries list, not undone), then the edited text, then the message's other blocks. No context block
 * when nothing came before it.
 */
export function editedContinuation(entries: readonly ThreadEntry[], index: number, text: string, o: { readonly title: string; readonly cwd: string }): ContentBlock[] {
  const entry = entries[index];
  const blocks = entry?.kind === 'user' ? entry.content : [];
  const rest = blocks[0]?.type === 'text' ? blocks.slice(1) : blocks;
  const before = entries.slice(0, index);
  const files = before.flatMap((e) => (e.kind === 'changes' && e.role === 'turn' && !e.undone ? e.files.map((f) => f.path) : []));
  const context: ContentBlock[] = before.some((e) => e.kind === 'user') ? [{ type: 'text', text: continuationContext(before, { title: o.title, files, cwd: o.cwd }).text }] : [];
  return [...context, { type: 'text', text }, ...rest];
}
