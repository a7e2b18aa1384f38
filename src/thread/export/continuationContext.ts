/**
 * The context a new session gets from one that cannot be reopened (Continue in New Session): the user's
 * messages and the final answer of each turn (no thoughts, no intermediate text, no tool chatter), and the
 * files the session changed, in one delimited block `<context source="switchboard" …>` … `</context>` with a
 * one-line instruction. The block is capped: the oldest turns go first, and a marker says how many went.
 * The opening tag carries the source's title and counts, so the chat can show the block collapsed
 * ({@link parseContextHeader}); it is read from the message's text, which is what the transcript store
 * keeps, so the collapsed view survives a reload. Pure: no vscode, no node built-ins.
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import { contextCloseTag, contextOpenTag } from '../util/contextHeader';
import type { ThreadEntry } from '../model/thread';

/** The size the block aims at, in characters (about 3k tokens). */
export const contextMaxChars = 12_000;
/** At most this many changed files are listed. */
export const contextMaxFiles = 50;

const instruction = 'This continues an earlier conversation that cannot be reopened: read this summary of it, then wait for my next message.';

/** One turn as the context keeps it. */
export interface ContextTurn {
  readonly user: string;
  /** The agent's last message of the turn; empty when it gave none. */
  readonly answer: string;
}

/** What {@link continuationContext} made. */
export interface ContinuationContext {
  readonly text: string;
  /** Turns in the block. */
  readonly turns: number;
  /** Older turns left out to stay within the cap. */
  readonly omitted: number;
  readonly files: number;
}

/** The user's messages and the final answers, turn by turn (a turn starts at each user message). */
export function contextTurns(entries: readonly ThreadEntry[]): ContextTurn[] {
  const turns: { user: string; answer: string }[] = [];
  for (const e of entries) {
    if (e.kind === 'user') turns.push({ user: userText(e.content), answer: '' });
    else if (e.kind === 'agent' && turns.length && e.text.trim()) turns[turns.length - 1].answer = e.text.trim();
  }
  return turns;
}

/** The files tool-call diffs touched, in first-seen order. */
export function diffPaths(entries: readonly ThreadEntry[]): string[] {
  const paths: string[] = [];
  for (const e of entries) {
    if (e.kind !== 'toolCall') continue;
    for (const c of e.content) if (c.type === 'diff' && !paths.includes(c.path)) paths.push(c.path);
  }
  return paths;
}

/**
 * The context block of a transcript. `files`: changed files besides the diffs' (the change tracker's),
 * shown relative to `cwd` when inside it.
 */
export function continuationContext(
  entries: readonly ThreadEntry[],
  o: { readonly title: string; readonly files?: readonly string[]; readonly cwd?: string; readonly maxChars?: number },
): ContinuationContext {
  const maxChars = o.maxChars ?? contextMaxChars;
  const files = [...new Set([...diffPaths(entries), ...(o.files ?? [])].map((p) => relativeTo(p, o.cwd)))];
  const fileLines = files.slice(0, contextMaxFiles).map((f) => `- ${f}`);
  if (files.length > contextMaxFiles) fileLines.push(`- … ${files.length - contextMaxFiles} more`);
  const fileSection = files.length ? `\n## Changed files\n${fileLines.join('\n')}\n` : '';
  const all = contextTurns(entries).map((t, i) => turnText(t, i + 1));
  // newest first, while the budget lasts; the newest turn always goes in (cut when it alone is too long)
  const budget = Math.max(0, maxChars - fileSection.length - instruction.length - 200 - o.title.length);
  const kept: string[] = [];
  let used = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const t = all[i];
    if (kept.length && used + t.length > budget) break;
    kept.unshift(kept.length ? t : cut(t, budget));
    used += t.length;
  }
  const omitted = all.length - kept.length;
  const header = contextOpenTag({ title: o.title, turns: kept.length, files: files.length });
  const body = [
    instruction,
    '',
    ...(omitted ? [`… ${omitted} earlier turn${omitted === 1 ? '' : 's'} omitted`, ''] : []),
    ...kept,
  ].join('\n');
  const text = `${header}\n${escapeBody(body)}${escapeBody(fileSection)}${contextCloseTag}`;
  return { text, turns: kept.length, omitted, files: files.length };
}

function turnText(t: ContextTurn, n: number): string {
  return `## Turn ${n}\nUser: ${t.user}\nAgent: ${t.answer || '(no answer)'}\n`;
}

function userText(content: readonly ContentBlock[]): string {
  return content.map((c) => {
    switch (c.type) {
      case 'text': return c.text;
      case 'resource_link': return `[file: ${c.title ?? c.name}]`;
      case 'resource': return `[file: ${(c.resource as { uri: string }).uri}]`;
      default: return `[${c.type}]`;
    }
  }).join(' ').trim();
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…\n`;
}

function relativeTo(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const base = cwd.replace(/[\\/]+$/, '');
  return path.startsWith(`${base}/`) || path.startsWith(`${base}\\`) ? path.slice(base.length + 1) : path;
}

// the block must end where it says: text that closes it early is neutralised
function escapeBody(text: string): string {
  return text.replace(/<\/context>/gi, '<\\/context>');
}
