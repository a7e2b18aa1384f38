/**
 * The list of open chats kept in `workspaceState`: the fallback of a restore (a panel that never stored
 * its session in its webview state is matched by title) and the titles and agent names shown while a
 * session reconnects. Each chat restores its own session from its webview state; VS Code restores the
 * panels one by one (a background tab maybe only when it is first shown), so a save made while some are
 * still waiting keeps their entries (docs/chat.md). No `vscode` import.
 */
import * as z from 'zod/mini';
import type { SessionRef } from '../host/sessionKey';

/** The `workspaceState` key. */
export const openChatsKey = 'switchboard.openChats';
/** At most this many entries are kept (open chats first). */
export const maxOpenChats = 50;

/** One open chat: its session and the panel's title. */
export interface OpenChat extends SessionRef { readonly panelTitle: string }

const openChatSchema = z.object({
  agentId: z.string(), sessionId: z.string(), cwd: z.string(), panelTitle: z.string(),
  agentName: z.optional(z.string()), title: z.optional(z.string()),
});

/** The saved list, validated: entries that do not parse are dropped. */
export function parseOpenChats(value: unknown): OpenChat[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    const parsed = openChatSchema.safeParse(v);
    return parsed.success ? [parsed.data] : [];
  });
}

const same = (a: Pick<SessionRef, 'agentId' | 'sessionId'>, b: Pick<SessionRef, 'agentId' | 'sessionId'>): boolean =>
  a.agentId === b.agentId && a.sessionId === b.sessionId;

/** The list to save: the open chats, then the saved entries of chats not restored yet (no session twice), capped. */
export function mergeOpenChats(open: readonly OpenChat[], pending: readonly OpenChat[]): OpenChat[] {
  const out: OpenChat[] = [];
  for (const chat of [...open, ...pending]) {
    if (!out.some((c) => same(c, chat))) out.push(chat);
  }
  return out.slice(0, maxOpenChats);
}

/** The entries the last window saved whose panels were not restored yet. */
export class PendingChats {
  private readonly _entries: OpenChat[];

  constructor(saved: readonly OpenChat[]) {
    this._entries = [...saved];
  }

  get entries(): readonly OpenChat[] {
    return this._entries;
  }

  /** The saved entry of a session, if it is still waiting. */
  find(ref: Pick<SessionRef, 'agentId' | 'sessionId'>): OpenChat | undefined {
    return this._entries.find((c) => same(c, ref));
  }

  /** The first waiting entry saved for a panel with this title whose session is not open (`isOpen`). */
  byTitle(panelTitle: string, isOpen: (chat: OpenChat) => boolean): OpenChat | undefined {
    return this._entries.find((c) => c.panelTitle === panelTitle && !isOpen(c));
  }

  /** Stops waiting for a session's panel (it was restored, or closed). */
  done(ref: Pick<SessionRef, 'agentId' | 'sessionId'>): void {
    const index = this._entries.findIndex((c) => same(c, ref));
    if (index >= 0) this._entries.splice(index, 1);
  }
}
