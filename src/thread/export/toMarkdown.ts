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
import type { SubagentEntry, ThreadEntry } from '../model/threadEntries';
import { changesSummary } from '../model/turnChanges';
import { contentToView } from '../view/toView';

/** How {@link toMarkdown} renders. */
export interface ToMarkdownOptions {
  /** `collapsed` (default): in a `<details>` block; `omitted`: left out. */
  readonly thoughts?: 'collapsed' | 'omitted';
}

/** The entries as Markdown; an empty string for no entries, else one trailing newline. */
export function toMarkdown(entries: readonly ThreadEntry[], options: ToMarkdownOptions = {}): string {
  const parts: string[] = [];
  let speaker: 'user' | 'agent' | undefined;
  const heading = (next: 'user' | 'agent') => {
    if (speaker !== next) parts.push(next === 'user' ? '## User' : '## Agent');
    speaker = next;
  };
  for (const e of entries) {
    switch (e.kind) {
      case 'user':
        heading('user');
        parts.push(...blocksToMarkdown(e.content));
        break;
      case 'agent':
        heading('agent');
        parts.push(...textToMarkdown(e.text, e.blocks));
        break;
      case 'thought':
        if (options.thoughts === 'omitted') break;
        heading('agent');
        parts.push(['<details><summary>Thinking</summary>', ...textToMarkdown(e.text, e.blocks), '</details>'].join('\n\n'));
        break;
      case 'toolCall':
        heading('agent');
        parts.push(`**Tool call:** ${e.title} (${e.status})`);
        break;
      case 'elicitation':
        heading('agent');
        parts.push(`**Question:** ${e.elicitation.message}${e.elicitation.outcome ? ` (${e.elicitation.outcome})` : ''}`);
        break;
      case 'notice':
        parts.push(`> ${e.level === 'info' ? '' : e.level === 'warning' ? '**Warning:** ' : '**Error:** '}${e.text}`);
        break;
      case 'compaction':
        heading('agent');
        parts.push(compactionToMarkdown(e));
        break;
      case 'subagent':
        heading('agent');
        parts.push(subagentToMarkdown(e, options));
        break;
      case 'sessionMessage':
        heading('agent');
        parts.push(['**Message between sessions:**', ...blocksToMarkdown(e.content)].join('\n\n'));
        break;
      case 'changes':
        parts.push(`> ${changesSummary(e)}: ${e.files.map((f) => f.rel).join(', ')}`);
        break;
    }
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
