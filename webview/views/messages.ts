/**
 * User messages, agent messages and thoughts. Agent text is Markdown (markdown.ts): a streamed message is
 * rendered incrementally, O(chunk) per update, never again as a whole. Thoughts are collapsible: open while
 * the agent thinks, collapsed once its answer starts (unless the user toggled them).
 */
import type { AgentTextView, ContentView, UserMessageView } from '../../src/shared/viewModel';
import { steeredLabels } from '../../src/shared/composerModel';
import { foldEnvelopes } from './agentText';
import { h } from './dom';
import { MarkdownStream, renderMarkdown } from './markdown';
import type { StreamRenderResult } from './markdown';

/** Text content longer than this is shown as plain text even where Markdown is asked for (one render). */
export const markdownContentMax = 256 * 1024;

/**
 * A content block (non-text blocks render as chips; images from their data). `markdown`: text renders as
 * sanitized Markdown (e.g. tool-call output, which agents write as Markdown); else as plain text.
 */
export function contentNode(c: ContentView, o: { readonly markdown?: boolean } = {}): Node {
  switch (c.type) {
    case 'text': return o.markdown && c.text.length <= markdownContentMax
      ? h('div', { class: 'text markdown' }, renderMarkdown(c.text))
      : h('div', { class: 'text' }, c.text);
    case 'image': return /^image\/(?:png|jpe?g|gif|webp)$/i.test(c.mimeType) && /^[a-z0-9+/=\s]*$/i.test(c.data)
      ? h('img', { class: 'content-image', src: `data:${c.mimeType};base64,${c.data}`, alt: 'image' })
      : h('div', { class: 'chip' }, `image (${c.mimeType})`);
    case 'resource': return h('div', { class: 'chip', title: c.uri }, `📎 ${c.name}`);
    case 'other': return h('div', { class: 'chip' }, c.label);
  }
}

/**
 * A user's message (plain text: what the user typed is shown as typed). The context block of Continue in
 * New Session (the first block) is shown collapsed: a disclosure that names where it comes from and expands
 * to the text; what follows it (the edited message of an Edit & Resend of an earlier message) shows as usual.
 */
export function userMessageNode(e: UserMessageView): HTMLElement {
  if (e.context) {
    const { title, turns, files } = e.context;
    const summary = `Context from '${title}' (${turns} turn${turns === 1 ? '' : 's'}, ${files} file${files === 1 ? '' : 's'})`;
    return h('div', { class: 'entry user user-context', 'data-testid': 'user-message' },
      h('details', { class: 'context-block', 'data-testid': 'context-block' },
        h('summary', { 'data-testid': 'context-summary' }, h('span', { class: 'codicon codicon-history', 'aria-hidden': 'true' }), ` ${summary}`),
        ...e.content.slice(0, 1).map((c) => contentNode(c))),
      ...e.content.slice(1).flatMap(userContentNodes));
  }
  const steered = e.steered && h('div', { class: 'steered', 'data-testid': 'steered' }, steeredLabels[e.steered]);
  return h('div', { class: 'entry user', 'data-testid': 'user-message', 'data-steered': e.steered }, ...(steered ? [steered] : []), ...e.content.flatMap(userContentNodes));
}

/**
 * A block of a user message; an envelope the agent wrote for its model and replayed as the user's (gemini's
 * `<session_context>`, `[Function Response: …]`) is folded away (agentText.ts).
 */
function userContentNodes(c: ContentView): Node[] {
  if (c.type !== 'text') return [contentNode(c)];
  return foldEnvelopes(c.text, (text) => contentNode({ type: 'text', text })) ?? [contentNode(c)];
}

/** The rendering state of an agent message or thought node. */
interface TextState {
  readonly id: string;
  readonly kind: 'agent' | 'thought';
  /** Everything appended so far (a rope: never read while streaming). */
  text: string;
  readonly stream: MarkdownStream;
  readonly blocks: HTMLElement;
  blocksOf: readonly ContentView[];
  /** Thoughts: the user opened or closed it; it is no longer collapsed automatically. */
  userToggled: boolean;
}
const states = new WeakMap<HTMLElement, TextState>();

/** An agent message or a thought; its text is rendered by {@link renderText} (the caller's next frame). */
export function agentTextNode(e: AgentTextView, open = true): HTMLElement {
  const stream = new MarkdownStream({ 'data-role': 'text' });
  stream.append(e.text);
  const blocks = h('div', { class: 'blocks' }, ...e.blocks.map((c) => contentNode(c)));
  let node: HTMLElement;
  if (e.kind === 'thought') {
    const summary = h('summary', { 'data-testid': 'thought-summary' }, 'Thinking');
    node = h('details', { class: 'entry thought', 'data-testid': 'thought' }, summary, stream.element, blocks);
    (node as HTMLDetailsElement).open = open;
    // a click (or Enter / Space) on the summary is the user's choice: stop collapsing it automatically
    summary.addEventListener('click', () => {
      const s = states.get(node);
      if (s) s.userToggled = true;
    });
  } else {
    node = h('div', { class: 'entry agent', 'data-testid': 'agent-message' }, stream.element, blocks);
  }
  states.set(node, { id: e.id, kind: e.kind, text: e.text, stream, blocks, blocksOf: e.blocks, userToggled: false });
  return node;
}

/** True for nodes made by {@link agentTextNode}. */
export function isTextNode(node: HTMLElement | undefined): boolean {
  return node !== undefined && states.has(node);
}

/**
 * Updates a rendered agent message or thought in place when `e` is the same entry with more text (the
 * usual case: a content block was added); false when the node must be replaced.
 */
export function updateAgentText(node: HTMLElement, e: AgentTextView): boolean {
  const s = states.get(node);
  if (!s || s.id !== e.id || s.kind !== e.kind || e.text.length < s.text.length || !e.text.startsWith(s.text)) return false;
  if (e.text.length > s.text.length) appendText(node, e.text.slice(s.text.length));
  if (e.blocks !== s.blocksOf) {
    s.blocks.replaceChildren(...e.blocks.map((c) => contentNode(c)));
    s.blocksOf = e.blocks;
  }
  return true;
}

/** Appends streamed text to a rendered agent message or thought; O(chunk), rendered by {@link renderText}. */
export function appendText(node: HTMLElement, text: string): void {
  const s = states.get(node);
  if (!s) return;
  s.text += text;
  s.stream.append(text);
}

/** True when the node has appended text to render. */
export function needsRender(node: HTMLElement): boolean {
  return states.get(node)?.stream.needsRender ?? false;
}

/**
 * Renders the appended text of a node, within a time budget (`deadline`, a `performance.now()` time); it
 * shows once {@link commitText} is called.
 */
export function renderText(node: HTMLElement, deadline = Infinity): StreamRenderResult & { readonly kind?: 'agent' | 'thought' } {
  const s = states.get(node);
  if (!s) return { finalText: '', pending: false };
  return { ...s.stream.render(deadline), kind: s.kind };
}

/** Puts the text that {@link renderText} rendered on the page (nothing when there is none). */
export function commitText(node: HTMLElement): void {
  states.get(node)?.stream.commit();
}

/** The text shown in the tail of a message (not reported as final yet). */
export function tailText(node: HTMLElement): string {
  return states.get(node)?.stream.tailText() ?? '';
}

/** Marks a thought as streaming or not (its summary shows "Thinking…" while it streams). */
export function setThinking(node: HTMLElement, streaming: boolean): void {
  if (states.get(node)?.kind !== 'thought') return;
  if (streaming) node.setAttribute('data-streaming', 'true');
  else node.removeAttribute('data-streaming');
}

/** Collapses a thought once the answer started, unless the user opened or closed it; true if it did. */
export function collapseThought(node: HTMLElement): boolean {
  const s = states.get(node);
  if (s?.kind !== 'thought' || s.userToggled || !(node as HTMLDetailsElement).open) return false;
  (node as HTMLDetailsElement).open = false;
  return true;
}
