/**
 * Pure helpers of the usage meter (no DOM): the warning bands of the usage RFD (under 75 % normal, 75–90 %
 * "Context filling up", 90–95 % "Start new session or summarize", over 95 % "Next prompt may fail") and
 * number formatting.
 */
import type { TurnUsageView } from '../../src/shared/viewModel';

/** The warning band of a usage ratio. */
export type UsageLevel = 'normal' | 'filling' | 'summarize' | 'critical';

/** The band of `used` / `size`, and its message (none while normal). */
export function usageLevel(used: number, size: number): { readonly level: UsageLevel; readonly percent: number; readonly message?: string } {
  const percent = size > 0 ? (used / size) * 100 : 0;
  if (percent > 95) return { level: 'critical', percent, message: 'Next prompt may fail' };
  if (percent >= 90) return { level: 'summarize', percent, message: 'Start new session or summarize' };
  if (percent >= 75) return { level: 'filling', percent, message: 'Context filling up' };
  return { level: 'normal', percent };
}

/** "$0.25", "1.75 EUR" when the currency code is unknown to the runtime. */
export function formatCost(cost: { readonly amount: number; readonly currency: string }): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: cost.currency, maximumFractionDigits: 4 }).format(cost.amount);
  } catch {
    return `${cost.amount.toFixed(2)} ${cost.currency}`;
  }
}

/** The last turn's tokens in one line: "Last turn: 12.3k tokens (in 10k, out 2.3k, thought 1k, cached 8k)". */
export function turnUsageText(u: TurnUsageView): string {
  const parts = [`in ${formatTokens(u.input)}`, `out ${formatTokens(u.output)}`];
  if (u.thought) parts.push(`thought ${formatTokens(u.thought)}`);
  if (u.cachedRead) parts.push(`cached ${formatTokens(u.cachedRead)}`);
  return `Last turn: ${formatTokens(u.total)} tokens (${parts.join(', ')})`;
}

/** Every count the agent reported with the last turn, one per line, in full. */
export function turnUsageTooltip(u: TurnUsageView): string {
  const line = (label: string, n: number | undefined) => (n === undefined ? [] : [`${label}: ${n.toLocaleString('en-US')}`]);
  return ['Tokens the agent reported for the last turn', ...line('Total', u.total), ...line('Input', u.input), ...line('Output', u.output),
    ...line('Thought', u.thought), ...line('Cache read', u.cachedRead), ...line('Cache write', u.cachedWrite)].join('\n');
}

/** "12.3k", "200k", "1.2M" */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 1_000) return `${trim(n / 1_000)}k`;
  return String(n);
}

function trim(x: number): string {
  return (x >= 100 ? x.toFixed(0) : x.toFixed(1)).replace(/\.0$/, '');
}
