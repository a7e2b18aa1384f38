/**
 * Changes inside a subagent's card (the deltas `subAppend` and `subEntry`, src/shared/viewModel.ts): the card at the
 * top is copied along the path down to the changed entry, so every entry that did not change keeps its identity and
 * the card's view re-renders only the ones that did (webview/views/subagent.ts). Pure: no DOM.
 */
import type { EntryView } from '../../src/shared/viewModel';

/**
 * `top` with the entry at `path` (indices into nested cards' entries) replaced by `change(old)`; a new entry may be
 * put just after a card's last one. Undefined when the path does not lead there, or `change` refuses the entry.
 */
export function replaceNested(top: EntryView | undefined, path: readonly number[], change: (old: EntryView | undefined) => EntryView | undefined): EntryView | undefined {
  const [at, ...below] = path;
  if (at === undefined) return change(top);
  if (top?.kind !== 'subagent' || at > top.entries.length) return undefined;
  const next = replaceNested(top.entries[at], below, change);
  if (!next) return undefined;
  const entries = [...top.entries];
  entries[at] = next;
  return { ...top, entries };
}

/** `text` appended to an agent message or thought (undefined for any other entry). */
export function appendToText(e: EntryView | undefined, text: string): EntryView | undefined {
  return e && (e.kind === 'agent' || e.kind === 'thought') ? { ...e, text: e.text + text } : undefined;
}
