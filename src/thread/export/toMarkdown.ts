/**
 * A thread's entries as Markdown text, like Zed's `AcpThread::to_markdown`: a `## User` or `## Agent`
 * heading where the speaker changes, the messages' text, thoughts collapsed in `<details>` (or left out),
 * each tool call as one line with its status, notices as quotes, a context compaction as a collapsed
 * `<details>` with its summary, a subagent as a collapsed `<details>` with its own transcript (the agent's live
 * notices are not entries, so never exported). Images and other non-text blocks become a
 * placeholder, resources a link. Pure (no vscode): for copying a conversation, and for tests that read a
 * transcript at a glance.
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import type { CompactionEntry } from '../model/compaction';
import { subagentStatus } from '../view/subagentView';
import type { EntryKind, EntryOf } from '../model/entryKinds';
import type { SubagentEntry, ThreadEntry } from '../model/threadEntries';
import { changesSummary } from '../model/turnChanges';
import { contentToView } from '../view/toView';
import { steeredLabels } from '../../shared/composerModel';

/** How {@link toMarkdown} renders. */
export interface ToMarkdownOptions {
  /** `collapsed` (default): in a `<details>` block; `omitted`: left out. */
  readonly thoughts?: 'collapsed' | 'omitted';
}

/** How one kind of entry reads: under whose heading (none: a quote between them), and its paragraphs (undefined: left out). */
interface EntryMarkdown<E extends ThreadEntry> {
  readonly speaker?: 'user' | 'agent';
  readonly parts: (e: E, options: ToMarkdownOptions) => string[] | undefined;
}

/** Each kind of entry as Markdown (a new kind does not compile until it says how it reads: docs/recipes.md). */
const entryMarkdown: { readonly [K in EntryKind]: EntryMarkdown<EntryOf<K>> } = {
  user: { speaker: 'user', parts: (e) => [...(e.steered && Object.hasOwn(steeredLabels, e.steered) ? [`_${steeredLabels[e.steered]}._`] : []), ...blocksToMarkdown(e.content)] },
  agent: { speaker: 'agent', parts: (e) => textToMarkdown(e.text, e.blocks) },
  thought: {
    speaker: 'agent',
    parts: (e, o) => (o.thoughts === 'omitted' ? undefined : [['<details><summary>Thinking</summary>', ...textToMarkdown(e.text, e.blocks), '</details>'].join('\n\n')]),
  },
  toolCall: { speaker: 'agent', parts: (e) => [`**Tool call:** ${e.title} (${e.status})`] },
  elicitation: { speaker: 'agent', parts: (e) => [`**Question:** ${e.elicitation.message}${e.elicitation.outcome ? ` (${e.elicitation.outcome})` : ''}`] },
  notice: { parts: (e) => [`> ${e.level === 'info' ? '' : e.level === 'warning' ? '**Warning:** ' : '**Error:** '}${e.text}`] },
  compaction: { speaker: 'agent', parts: (e) => [compactionToMarkdown(e)] },
  subagent: { speaker: 'agent', parts: (e, o) => [subagentToMarkdown(e, o)] },
  sessionMessage: { speaker: 'agent', parts: (e) => [['**Message between sessions:**', ...blocksToMarkdown(e.content)].join('\n\n')] },
  changes: { parts: (e) => [`> ${changesSummary(e)}: ${e.files.map((f) => f.rel).join(', ')}`] },
};

function markdownOfKind<K extends EntryKind>(kind: K, e: EntryOf<K>, options: ToMarkdownOptions): { speaker?: 'user' | 'agent'; parts?: string[] } {
  const md = entryMarkdown[kind];
  return { speaker: md.speaker, parts: md.parts(e, options) };
}

/** The entries as Markdown; an empty string for no entries, else one trailing newline. */
export function toMarkdown(entries: readonly ThreadEntry[], options: ToMarkdownOptions = {}): string {
  const parts: string[] = [];
  let speaker: 'user' | 'agent' | undefined;
  for (const e of entries) {
    const md = markdownOfKind(e.kind, e, options);
    if (!md.parts) continue;
    if (md.speaker && md.speaker !== speaker) parts.push(md.speaker === 'user' ? '## User' : '## Agent');
    speaker = md.speaker ?? speaker;
    parts.push(...md.parts);
  }
  return parts.length ? `${parts.join('\n\n')}\n` : '';
}

const compactionStates: Record<string, string> = { in_progress: 'in progress', completed: 'completed', failed: 'failed', cancelled: 'cancelled' };

/** A compaction: a `<details>` block titled with its status, with its summary (and error) inside. */
function compactionToMarkdown(e: CompactionEntry): string {
  const title = `<details><summary>Context compacted (${compactionStates[e.status] ?? e.status})</summary>`;
  return [title, ...blocksToMarkdown(e.summary), ...(e.error ? [`**Error:** ${e.error}`] : []), '</details>'].join('\n\n');
}

/** A subagent: a `<details>` block titled with its name and status, with its own transcript inside. */
function subagentToMarkdown(e: SubagentEntry, options: ToMarkdownOptions): string {
  const { status, detail } = subagentStatus(e.state);
  const title = `<details><summary>Subagent: ${e.title ?? 'untitled'} (${status})</summary>`;
  const inner = toMarkdown(e.entries, options).trimEnd();
  return [title, ...(e.description ? [`*${e.description}*`] : []), ...(detail ? [`**${status === 'failed' ? 'Error' : 'Note'}:** ${detail}`] : []), ...(inner ? [inner] : []), '</details>'].join('\n\n');
}

/** A message's text (if any) and its other blocks, one paragraph each. */
function textToMarkdown(text: string, blocks: readonly ContentBlock[]): string[] {
  return [...(text ? [text] : []), ...blocks.map(blockToMarkdown)];
}

/** Content blocks as paragraphs; consecutive text blocks (chunks of one message) are joined. */
function blocksToMarkdown(blocks: readonly ContentBlock[]): string[] {
  const out: string[] = [];
  let text: string | undefined;
  for (const b of blocks) {
    if (b.type === 'text') {
      text = (text ?? '') + b.text;
      continue;
    }
    if (text !== undefined) out.push(text);
    text = undefined;
    out.push(blockToMarkdown(b));
  }
  if (text !== undefined) out.push(text);
  return out;
}

function blockToMarkdown(block: ContentBlock): string {
  const view = contentToView(block);
  switch (view.type) {
    case 'text': return view.text;
    case 'image': return '[image]';
    case 'resource': return `[${view.name}](${view.uri})`;
    case 'other': return `[${view.label}]`;
  }
}
