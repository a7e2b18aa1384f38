/**
 * Notices in the transcript: stop reasons (max_tokens, max_turn_requests, refusal, cancelled), agent
 * errors and exits. An error the user can retry carries a Retry button that resends the last prompt.
 */
import '../styles/cards.css';
import type { NoticeAction, NoticeView } from '../../src/shared/viewModel';
import type { ChatActions } from '../actions';
import { button } from '../components/button';
import { h } from './dom';
import type { RenderContext } from './renderContext';

const levelIcons: Record<NoticeView['level'], string> = { info: 'info', warning: 'warning', error: 'error' };

/** What the buttons of notices and of the error banner do. */
export type NoticeActions = Pick<ChatActions, 'retry' | 'restart' | 'resend' | 'continueSession' | 'revertFlagged' | 'queueUntaken'>;

const restart = { label: 'Restart', icon: 'debug-restart', title: 'Restart the agent and reopen this session', run: (a: NoticeActions) => a.restart() };

/** The button of a notice or of the error banner, by action. */
const actionButtons: Record<NoticeAction, { label: string; icon: string; title: string; run(actions: NoticeActions): void }> = {
  retry: { label: 'Retry', icon: 'refresh', title: 'Send the last prompt again', run: (a) => a.retry() },
  restart,
  // a chat that is reconnecting (src/host/lifecycle/reconnect.ts): the same restart, which connects now
  reconnect: { ...restart, label: 'Reconnect Now' },
  resend: { label: 'Resend', icon: 'send', title: 'Send the interrupted prompt again', run: (a) => a.resend() },
  queue: { label: 'Queue It', icon: 'send', title: 'Queue this message: it is sent when the turn ends', run: (a) => a.queueUntaken() },
  revert: { label: 'Revert', icon: 'discard', title: 'Restore these files from the checkpoint before the turn', run: (a) => a.revertFlagged() },
  continue: {
    label: 'Continue in New Session', icon: 'arrow-right', run: (a) => a.continueSession(),
    title: 'A new session whose first prompt carries this transcript',
  },
};

/** The button for a notice action (`data-testid` is `notice-<action>`). */
export function actionButton(action: NoticeAction, actions: NoticeActions): HTMLElement {
  const b = actionButtons[action];
  return button({ label: b.label, icon: b.icon, testId: `notice-${action}`, className: 'notice-action', title: b.title, onClick: () => b.run(actions) });
}

/** A notice; `ctx` lets its action button talk to the host. A fork's marker ("Forked from …") is a divider. */
export function noticeNode(e: NoticeView, ctx?: RenderContext): HTMLElement {
  const icon = e.marker === 'fork' ? 'repo-forked' : levelIcons[e.level];
  const node = h('div', { class: `entry notice ${e.level}${e.marker ? ` marker-${e.marker}` : ''}`, role: e.level === 'error' ? 'alert' : undefined, 'data-testid': e.marker ? `${e.marker}-marker` : 'notice', 'data-level': e.level },
    h('span', { class: `codicon codicon-${icon} notice-icon`, 'aria-hidden': 'true' }),
    h('span', { class: 'notice-text' }, e.text));
  if (e.action && ctx) node.append(actionButton(e.action, ctx.actions));
  return node;
}
