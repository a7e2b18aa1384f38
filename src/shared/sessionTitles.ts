/**
 * The names of sessions that have no title yet (docs/sessions.md, "Organizing sessions", Titles): an untitled session
 * is named by its agent and the local time it was created, so that several new sessions can be told apart.
 */
import { untitledSession } from './viewModel';

/**
 * The name of a session with no title yet, when its creation time is known: its agent and the local time it
 * was created, to the second, so that sessions started in the same minute differ ("Demo agent · 10:42:07").
 * The time is the client's record of the session (src/host/history/transcriptStore.ts), so the name stays the
 * same after a reload; the extension formats it, so every surface shows the same text.
 */
export function untitledTitle(agentName: string, createdAt: number | undefined): string {
  if (createdAt === undefined || !Number.isFinite(createdAt)) return untitledSession;
  const d = new Date(createdAt);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${agentName} · ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * The creation time of a new session: now, or the next second after the last new session's when that was
 * this second, so that untitled names (to the second) never repeat, even for sessions started together.
 */
export function nextCreatedAt(now: number, lastNew: number): number {
  return Math.floor(now / 1000) > Math.floor(lastNew / 1000) ? now : (Math.floor(lastNew / 1000) + 1) * 1000;
}

/**
 * A history row's title, else its untitled name: an open session's own (`untitledName`, what its tab shows), else
 * {@link untitledTitle} when its agent and creation time are known.
 */
export function rowTitle(row: { readonly title: string; readonly untitledName?: string | undefined; readonly agentName?: string; readonly createdAt?: number | undefined }): string {
  return row.title.trim() || row.untitledName || (row.agentName === undefined ? untitledSession : untitledTitle(row.agentName, row.createdAt));
}
