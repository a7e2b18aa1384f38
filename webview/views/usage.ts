/**
 * The context usage meter: tokens used of the window, the cost when the agent gives it, and the warning
 * bands of the usage RFD: under 75 % normal, 75–90 % "Context filling up", 90–95 % "Start new session or
 * summarize", over 95 % "Next prompt may fail". After it, subtle, the tokens the agent reported with the last
 * turn's prompt response ("Last turn: 12.3k tokens (in 10k, out 2.3k, cached 8k)", every count in its tooltip); a
 * row of its own when the agent sends no context usage.
 */
import type { ThreadStateView, TurnUsageView } from '../../src/shared/viewModel';
import { h } from './dom';
import { formatCost, formatTokens, turnUsageText, turnUsageTooltip, usageLevel } from '../lib/usageLevel';

/** The last turn's tokens. */
function turnUsageNode(turn: TurnUsageView): HTMLElement {
  return h('span', { class: 'usage-turn', 'data-testid': 'turn-usage', title: turnUsageTooltip(turn) }, turnUsageText(turn));
}

/** The meter and the last turn's tokens, or undefined before the agent reported either. */
export function usageNode(usage: ThreadStateView['usage'], turn?: TurnUsageView): HTMLElement | undefined {
  if (!usage) return turn ? h('div', { class: 'usage turn-only', 'data-testid': 'usage-turn-row' }, turnUsageNode(turn)) : undefined;
  const { level, percent, message } = usageLevel(usage.used, usage.size);
  const rounded = Math.round(percent);
  const fill = h('div', { class: 'usage-fill' });
  fill.style.width = `${Math.min(100, Math.max(0, percent))}%`; // CSSOM, allowed by the CSP (no inline style attribute)
  const summary = `Context ${usage.used.toLocaleString()} / ${usage.size.toLocaleString()} tokens (${rounded}%)${usage.cost ? ` · ${formatCost(usage.cost)}` : ''}`;
  return h('div', { class: `usage ${level}`, 'data-testid': 'usage', 'data-level': level, title: summary },
    h('div', {
      class: 'usage-bar', role: 'meter', 'aria-label': 'Context window used', 'aria-valuemin': '0', 'aria-valuemax': String(usage.size),
      'aria-valuenow': String(Math.min(usage.used, usage.size)), 'aria-valuetext': `${rounded}%${message ? `, ${message}` : ''}`,
    }, fill),
    h('span', { class: 'usage-text', 'data-testid': 'usage-text' }, `${formatTokens(usage.used)} / ${formatTokens(usage.size)} (${rounded}%)`),
    usage.cost ? h('span', { class: 'usage-cost', 'data-testid': 'usage-cost' }, formatCost(usage.cost)) : undefined,
    message ? h('span', { class: 'usage-warning', 'data-testid': 'usage-warning' },
      h('span', { class: `codicon codicon-${level === 'filling' ? 'info' : 'warning'}`, 'aria-hidden': 'true' }), ` ${message}`) : undefined,
    turn ? turnUsageNode(turn) : undefined);
}
