/**
 * Search Sessions in the Sessions view: the sessions whose title, or whose transcript in Switchboard's store
 * (src/host/history/transcriptSearch.ts, read a chunk at a time, never whole), contains the words. An input box
 * searches as the user types; a newer query cancels the search of an older one, whose results are dropped. The
 * view shows the matches, each with a snippet of where its transcript matched, until Clear Search.
 */
import * as vscode from 'vscode';
import type { HistoryItem } from '../../host/history/sessionHistory';
import { minQueryLength, SearchCancelled } from '../../host/history/transcriptSearch';
import type { TranscriptStore } from '../../host/history/transcriptStore';
import { sessionKey } from '../../host/sessionKey';
import { inert, inertText } from '../../shared/inertText';
import { sessionsSearchingContextKey } from '../../constants';

/** How long typing pauses before the transcripts are searched. */
const typingPauseMs = 200;

/** The Sessions view's search: the query, and what the transcripts matched. */
export class SessionSearch implements vscode.Disposable {
  private _query: string | undefined;
  private _matches = new Map<string, string>();
  private _busy = false;
  private _version = 0;
  private _timer: NodeJS.Timeout | undefined;

  constructor(readonly store: Pick<TranscriptStore, 'search'>, private readonly changed: () => void) {
    void vscode.commands.executeCommand('setContext', sessionsSearchingContextKey, false);
  }

  /** True while the view shows search results. */
  get active(): boolean {
    return this._query !== undefined;
  }

  get query(): string | undefined {
    return this._query;
  }

  /** Searches for `query` (undefined or blank: back to all sessions); resolves once the transcripts were searched. */
  set(query: string | undefined): Promise<void> {
    const q = query?.trim() || undefined;
    const version = ++this._version;
    if (this._timer) clearTimeout(this._timer);
    this._timer = undefined;
    this._query = q;
    this._matches = new Map();
    this._busy = !!q && q.length >= minQueryLength;
    void vscode.commands.executeCommand('setContext', sessionsSearchingContextKey, !!q);
    this.changed();
    if (!this._busy || !q) return Promise.resolve();
    return this.store.search(q, { isCancelled: () => version !== this._version }).then((found) => {
      if (version !== this._version) return;
      this._matches = new Map(found.map((m) => [sessionKey(m.agentId, m.sessionId), m.snippet]));
    }, (e: unknown) => {
      if (e instanceof SearchCancelled || version !== this._version) return;
      void vscode.window.showErrorMessage(inert.message`Could not search the transcripts: ${e instanceof Error ? e.message : String(e)}`);
    }).finally(() => {
      if (version !== this._version) return;
      this._busy = false;
      this.changed();
    });
  }

  /** The rows that match: by title, or by transcript (with its snippet). */
  filter(rows: readonly HistoryItem[]): { item: HistoryItem; snippet?: string }[] {
    const q = this._query?.toLowerCase();
    if (!q) return rows.map((item) => ({ item }));
    return rows.flatMap((item) => {
      const snippet = this._matches.get(sessionKey(item.agentId, item.sessionId));
      if (snippet !== undefined) return [{ item, snippet }];
      return item.title.toLowerCase().includes(q) ? [{ item }] : [];
    });
  }

  /** The view's message: what it shows ("3 sessions match …", "Searching transcripts…"), or none. */
  showResults(view: vscode.TreeView<unknown> | undefined, rows: readonly HistoryItem[]): void {
    if (!view) return;
    if (!this._query) {
      view.message = undefined;
      return;
    }
    const n = this.filter(rows).length;
    const q = inertText(this._query, 'plain', 60);
    const message = this._busy ? inert.plain`Searching titles and transcripts for "${q}"…` : inert.plain`${n === 0 ? 'No' : n} session${n === 1 ? '' : 's'} match "${q}" (title or transcript). Clear Search shows all.`;
    view.message = message;
  }

  /** The search box: searches as the user types; Enter or Escape keeps the results (Clear Search ends them). */
  prompt(): void {
    const box = vscode.window.createInputBox();
    box.title = 'Search Sessions';
    box.placeholder = 'Words from a session\'s title or transcript';
    box.value = this._query ?? '';
    box.onDidChangeValue((v) => {
      if (this._timer) clearTimeout(this._timer);
      this._timer = setTimeout(() => { this._timer = undefined; void this.set(v); }, typingPauseMs);
    });
    box.onDidAccept(() => {
      if (this._timer) clearTimeout(this._timer);
      this._timer = undefined;
      if ((box.value.trim() || undefined) !== this._query) void this.set(box.value);
      box.hide();
    });
    box.onDidHide(() => box.dispose());
    box.show();
  }

  dispose(): void {
    if (this._timer) clearTimeout(this._timer);
    this._version++;
  }
}
