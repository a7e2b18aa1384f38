/**
 * A context compaction in the transcript (src/thread/model/compaction.ts): one line with a disclosure chevron, the
 * status (a spinner while in progress, then completed, failed or cancelled) and, expandable, the summary the
 * agent streamed, as sanitized Markdown. Open while it streams, collapsed once it finished, unless the user
 * opened or closed it. Updated in place, so a focused line keeps the focus while the summary streams.
 */
import '../styles/notices.css';
import type { CompactionView } from '../../src/shared/viewModel';
import { progressRing } from '../components/progressRing';
import { h } from './dom';
import { renderMarkdown } from './markdown';
import { contentNode } from './messages';

const titles: Record<CompactionView['status'], string> = {
  in_progress: 'Compacting context…', completed: 'Context compacted', failed: 'Context compaction failed',
  cancelled: 'Context compaction cancelled', other: 'Context compaction',
};
const icons: Record<CompactionView['status'], string> = {
  in_progress: '', completed: 'check', failed: 'error', cancelled: 'circle-slash', other: 'info',
};

/** The user's open/closed choice per compaction (by entry id), kept across re-renders. */
const userOpen = new Map<string, boolean>();

interface Parts {
  readonly id: string;
  readonly details: HTMLDetailsElement;
  readonly summary: HTMLElement;
  readonly body: HTMLElement;
  readonly error: HTMLElement;
  /** What is rendered now (to skip unchanged parts). */
  shown: { status?: string; summary?: string; blocks?: readonly unknown[]; error?: string };
}
const parts = new WeakMap<HTMLElement, Parts>();

/** The node of a compaction. */
export function compactionNode(e: CompactionView): HTMLElement {
  const summary = h('summary', { class: 'compaction-line', 'data-testid': 'compaction-toggle' });
  const body = h('div', { class: 'compaction-body', 'data-testid': 'compaction-summary' });
  const details = h('details', { class: 'compaction-details' }, summary, body);
  const error = h('div', { class: 'compaction-error', 'data-testid': 'compaction-error' });
  const node = h('div', { class: 'entry compaction', 'data-testid': 'compaction' }, details, error);
  // a click (or Enter / Space) on the line is the user's choice: it is no longer opened or closed for them
  summary.addEventListener('click', (event) => {
    if (summary.hasAttribute('data-empty')) event.preventDefault(); // nothing to show yet
    else userOpen.set(e.id, !details.open);
  });
  parts.set(node, { id: e.id, details, summary, body, error, shown: {} });
  updateCompactionNode(node, e);
  return node;
}

/** Updates a compaction's node in place; false when `node` is not this compaction's. */
export function updateCompactionNode(node: HTMLElement, e: CompactionView): boolean {
  const p = parts.get(node);
  if (!p || p.id !== e.id) return false;
  node.setAttribute('data-status', e.status);
  node.classList.toggle('failed', e.status === 'failed');
  if (p.shown.status !== e.status) {
    const icon = e.status === 'in_progress'
      ? progressRing('In progress')
      : h('span', { class: `codicon codicon-${icons[e.status]} compaction-icon`, 'aria-hidden': 'true' });
    p.summary.replaceChildren(icon, h('span', { class: 'compaction-title', 'data-testid': 'compaction-title' }, titles[e.status]));
  }
  if (p.shown.summary !== e.summary || p.shown.blocks !== e.blocks) {
    p.body.replaceChildren(h('div', { class: 'markdown' }, renderMarkdown(e.summary)), ...e.blocks.map((c) => contentNode(c)));
  }
  if (p.shown.error !== e.error) p.error.replaceChildren(...(e.error ? [e.error] : []));
  p.error.hidden = !e.error;
  const hasSummary = e.summary.length > 0 || e.blocks.length > 0;
  p.summary.toggleAttribute('data-empty', !hasSummary);
  p.details.open = hasSummary && (userOpen.get(e.id) ?? e.status === 'in_progress');
  p.shown = { status: e.status, summary: e.summary, blocks: e.blocks, error: e.error };
  return true;
}
