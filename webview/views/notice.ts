/**
 * Notices in the transcript: stop reasons (max_tokens, max_turn_requests, refusal, cancelled), agent
 * errors and exits. An error the user can retry carries a Retry button that resends the last prompt.
 */
import '../styles/cards.css';
import type { NoticeView } from '../../src/shared/viewModel';
import { button } from '../components/button';
import { h } from './dom';
import type { RenderContext } from './renderContext';

const levelIcons: Record<NoticeView['level'], string> = { info: 'info', warning: 'warning', error: 'error' };

/** A notice; `ctx` lets its action button talk to the host. */
export function noticeNode(e: NoticeView, ctx?: RenderContext): HTMLElement {
  const node = h('div', { class: `entry notice ${e.level}`, role: e.level === 'error' ? 'alert' : undefined, 'data-testid': 'notice', 'data-level': e.level },
    h('span', { class: `codicon codicon-${levelIcons[e.level]} notice-icon`, 'aria-hidden': 'true' }),
    h('span', { class: 'notice-text' }, e.text));
  if (e.action === 'retry' && ctx) {
    node.append(button({
      label: 'Retry', icon: 'refresh', testId: 'notice-retry', className: 'notice-action', title: 'Send the last prompt again',
      onClick: () => ctx.actions.retry(),
    }));
  }
  if (e.action === 'restart' && ctx) {
    node.append(button({
      label: 'Restart', icon: 'debug-restart', testId: 'notice-restart', className: 'notice-action', title: 'Restart the agent and reopen this session',
      onClick: () => ctx.actions.restart(),
    }));
  }
  if (e.action === 'resend' && ctx) {
    node.append(button({
      label: 'Resend', icon: 'send', testId: 'notice-resend', className: 'notice-action', title: 'Send the interrupted prompt again',
      onClick: () => ctx.actions.resend(),
    }));
  }
  return node;
}
