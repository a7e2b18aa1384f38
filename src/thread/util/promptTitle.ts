/**
 * The title of a session the agent has not named: its first prompt, shortened. The tab, the header,
 * Switch Session, the Sessions view and the status bar all show the thread's title, so an untitled session
 * reads the same everywhere, and two of them can be told apart (docs/sessions.md#organizing-sessions).
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import { capAtWord } from '../../shared/inertText';
import { parseContextHeader } from './contextHeader';

/** Longest title taken from a prompt, in characters (the tab shortens further). */
export const promptTitleMax = 60;

/**
 * The first prompt's text as a title: whitespace collapsed, cut at a word boundary with an ellipsis.
 * Undefined when the prompt has no text (only an image or a resource).
 */
export function promptTitle(prompt: readonly ContentBlock[]): string | undefined {
  const text = prompt.map((b) => (b.type === 'text' ? b.text : '')).join(' ').replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  // a continuation's context block (Continue in New Session) is named after the session it continues; the
  // edited message after it (Edit & Resend of an earlier message) names the session itself
  const context = prompt[0]?.type === 'text' ? parseContextHeader(prompt[0].text) : undefined;
  if (context && prompt.length > 1) return promptTitle(prompt.slice(1));
  if (context) return promptTitle([{ type: 'text', text: `Continued: ${context.title || 'an earlier session'}` }]);
  return capAtWord(text, promptTitleMax);
}
