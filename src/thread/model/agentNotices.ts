/**
 * The agent's live notices (`notice` session updates, https://agentclientprotocol.com/rfds/session-notices):
 * fire-and-forget information for the user, not session history. They are kept here (newest first, at most
 * {@link maxAgentNotices}; older ones drop off) until the user dismisses them, and are never written to the
 * transcript store, exported or replayed: they are thread state, not entries. Pure: no vscode, no node.
 */
import type { Notice } from '../../acp/schema/types.gen';

/** How many notices the thread keeps at most (the oldest go first). */
export const maxAgentNotices = 3;

/** A live notice of the agent, as the thread keeps it (plain text; the chat shows it until it is dismissed). */
export interface AgentNotice {
  readonly id: string;
  /** Unknown and `_`-prefixed severities are `info`. */
  readonly severity: 'info' | 'warning' | 'error';
  readonly title: string;
  readonly description?: string;
}

/** A severity as the chat styles it: unknown and `_`-prefixed (extension) severities are `info`. */
export function noticeSeverity(severity: string): AgentNotice['severity'] {
  return severity === 'warning' || severity === 'error' ? severity : 'info';
}

/** The notices on screen, newest first. */
export class AgentNotices {
  private _items: AgentNotice[] = [];
  private _nextId = 0;

  /** `changed` is called after every change (the thread fires its `notices` state change). */
  constructor(private readonly changed: () => void) {}

  /** The notices, newest first. */
  get items(): readonly AgentNotice[] {
    return this._items;
  }

  /** Shows a notice on top; the oldest beyond {@link maxAgentNotices} expire. */
  add(notice: Pick<Notice, 'severity' | 'title' | 'description'>): void {
    const description = notice.description?.trim();
    const view: AgentNotice = {
      id: `n${++this._nextId}`, severity: noticeSeverity(notice.severity),
      // the schema requires a non-empty title; a lenient client still shows something
      title: notice.title.trim() || 'Notice from the agent',
      ...(description ? { description } : {}),
    };
    this._items = [view, ...this._items].slice(0, maxAgentNotices);
    this.changed();
  }

  /** Removes a notice (the user closed it); false when it is not shown (any more). */
  dismiss(id: string): boolean {
    const before = this._items.length;
    this._items = this._items.filter((n) => n.id !== id);
    if (this._items.length === before) return false;
    this.changed();
    return true;
  }
}
