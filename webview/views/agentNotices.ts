/**
 * The agent's live notices (src/thread/model/agentNotices.ts): a small stack above the composer, newest on top, each
 * with a severity icon, its title and description as plain text, and a close button (keyboard reachable,
 * with a tooltip). They never take the focus; a new one is announced politely. Not part of the transcript.
 * Closing one with the keyboard moves the focus to the next notice's close button, else to the composer.
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/notices.css';
import type { AgentNoticeView } from '../../src/shared/viewModel';
import { button } from '../components/button';
import { h } from './dom';
import type { LiveAnnouncer } from './liveRegion';

const icons: Record<AgentNoticeView['severity'], string> = { info: 'info', warning: 'warning', error: 'error' };
const severityNames: Record<AgentNoticeView['severity'], string> = { info: 'Notice', warning: 'Warning', error: 'Error' };

/** Renders the notices of the state into `element`. */
export class AgentNoticesView {
  readonly element = h('section', { class: 'agent-notices', 'aria-label': 'Notices from the agent', 'data-testid': 'agent-notices' });
  private shown = new Map<string, HTMLElement>();
  private announced = new Set<string>();
  private first = true;

  constructor(
    private readonly dismiss: (id: string) => void,
    private readonly live: Pick<LiveAnnouncer, 'say'>,
    private readonly focusComposer: () => void,
  ) {
    this.element.hidden = true;
  }

  /** Shows exactly `notices` (newest first); new ones are announced, except those of the first render (a reload). */
  render(notices: readonly AgentNoticeView[] = []): void {
    const next = new Map<string, HTMLElement>();
    for (const n of notices) next.set(n.id, this.shown.get(n.id) ?? this.noticeNode(n));
    const focused = [...this.shown.entries()].find(([id, node]) => !next.has(id) && node.contains(document.activeElement));
    this.element.replaceChildren(...next.values());
    this.element.hidden = next.size === 0;
    for (const n of notices) {
      if (this.announced.has(n.id)) continue;
      this.announced.add(n.id);
      if (!this.first) this.live.say(`${severityNames[n.severity]} from the agent: ${n.title}${n.description ? `. ${n.description}` : ''}`);
    }
    this.first = false;
    this.shown = next;
    if (focused) this.refocus();
  }

  private noticeNode(n: AgentNoticeView): HTMLElement {
    const close = button({
      label: 'Close notice', appearance: 'icon', icon: 'close', title: 'Close notice', testId: 'agent-notice-close',
      className: 'agent-notice-close', onClick: () => this.dismiss(n.id),
    });
    return h('div', { class: `agent-notice ${n.severity}`, 'data-testid': 'agent-notice', 'data-severity': n.severity },
      h('span', { class: `codicon codicon-${icons[n.severity]} agent-notice-icon`, role: 'img', 'aria-label': severityNames[n.severity] }),
      h('div', { class: 'agent-notice-text' },
        h('div', { class: 'agent-notice-title', 'data-testid': 'agent-notice-title' }, n.title),
        ...(n.description ? [h('div', { class: 'agent-notice-description', 'data-testid': 'agent-notice-description' }, n.description)] : [])),
      close);
  }

  /** The focused notice was closed: the next one's close button, else the composer, gets the focus. */
  private refocus(): void {
    const next = this.element.querySelector<HTMLElement>('[data-testid="agent-notice-close"]');
    if (next) next.focus();
    else this.focusComposer();
  }
}
