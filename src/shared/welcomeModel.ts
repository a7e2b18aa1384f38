/**
 * What the welcome of an empty chat shows besides the session's state (its slash commands come with the
 * state): the agent's name, what it can do in plain words, and its recent sessions. Built by the host
 * (src/thread/view/welcomeView.ts), rendered by webview/views/welcome.ts. Every string but the badges' own
 * labels comes from the agent: the webview shows it as text only.
 */

/** One thing the agent can do, as a small badge. */
export interface CapabilityBadgeView {
  /** Stable id, e.g. `image`, `loadSession`, `mcpHttp`, `terminal`. */
  readonly id: string;
  /** A few plain words, e.g. "Images". */
  readonly label: string;
  /** A sentence for the tooltip. */
  readonly title: string;
  /** A codicon name. */
  readonly icon: string;
}

/** A recent session of the same agent. */
export interface RecentSessionView {
  readonly sessionId: string;
  readonly title: string;
  /** Milliseconds since the epoch, when known. */
  readonly updatedAt?: number;
}

/** The welcome's data. */
export interface WelcomeView {
  readonly agentName: string;
  readonly capabilities: readonly CapabilityBadgeView[];
  /** At most {@link welcomeRecentMax}, most recent first; never the chat's own session. */
  readonly recent: readonly RecentSessionView[];
}

/** How many recent sessions the welcome lists. */
export const welcomeRecentMax = 5;

/** "just now", "5 min ago", "3 h ago", "2 days ago", or a date (the Sessions view's wording). */
export function relativeTime(ms: number | undefined, now = Date.now()): string {
  if (ms === undefined) return '';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 30) return `${Math.floor(s / 86400)} day${s < 86400 * 2 ? '' : 's'} ago`;
  return new Date(ms).toISOString().slice(0, 10);
}
