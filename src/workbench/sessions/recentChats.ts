/**
 * Which chats were in front, most recent first, so that ACP: Switch Session… can preselect the session the
 * user was in before the current one (Enter then switches back, as with the editor's recently used list).
 */
// types only: the pure part below runs in unit tests, without VS Code
import type * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';

/** The session in front now and the keys of the sessions that were in front, most recent first. */
export interface ChatFocus {
  current(): string | undefined;
  recent(): readonly string[];
}

/** Remembers the order in which sessions came to the front (at most `max` keys). */
export class RecentChats implements ChatFocus, vscode.Disposable {
  private _recent: string[] = [];
  private readonly _sub: vscode.Disposable;

  constructor(private readonly active: () => AgentSession | undefined, onDidChange: vscode.Event<void>, private readonly max = 50) {
    this._sub = onDidChange(() => this.note());
    this.note();
  }

  current(): string | undefined {
    return this.active()?.key;
  }

  recent(): readonly string[] {
    return this._recent;
  }

  private note(): void {
    const key = this.current();
    if (key === undefined || this._recent[0] === key) return;
    this._recent = [key, ...this._recent.filter((k) => k !== key)].slice(0, this.max);
  }

  dispose(): void {
    this._sub.dispose();
  }
}

/**
 * The session Switch Session's Enter opens at first, of `keys` (its rows' session keys, in their order): the
 * most recently shown session other than the current one, else the first other row. Undefined when the
 * current session is the only row.
 */
export function preselectedKey(keys: readonly string[], focus: { readonly current: string | undefined; readonly recent: readonly string[] }): string | undefined {
  const others = keys.filter((k) => k !== focus.current);
  return focus.recent.find((k) => k !== focus.current && others.includes(k)) ?? others[0];
}
