/**
 * How often Switchboard may tell the user about something that happened in the background (the notifications
 * about hidden sessions, src/workbench/sessions/stateNotifier.ts): a sliding window over all keys plus a minimum
 * gap per key. Pure: the caller gives the time.
 */

/** A sliding-window rate limit: `take(key, now)` is true when a notification may be shown now. */
export class NotificationLimit {
  private readonly _shown: number[] = [];
  private readonly _lastBySession = new Map<string, number>();

  constructor(private readonly perSession: number, private readonly window: number, private readonly max: number) {}

  take(key: string, now: number): boolean {
    while (this._shown.length && now - (this._shown[0] ?? 0) >= this.window) this._shown.shift();
    const last = this._lastBySession.get(key);
    if (last !== undefined && now - last < this.perSession) return false;
    if (this._shown.length >= this.max) return false;
    this._shown.push(now);
    this._lastBySession.set(key, now);
    return true;
  }

  /** When the window has room again (ms from `now`). */
  nextFree(now: number): number {
    return this._shown.length < this.max ? 0 : Math.max(0, this.window - (now - (this._shown[0] ?? now)));
  }
}
