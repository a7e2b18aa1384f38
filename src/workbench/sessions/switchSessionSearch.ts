/**
 * Switch Session's second section, "Matches in transcript": what the user types is searched in the transcripts of
 * Switchboard's store (src/host/history/transcriptSearch.ts) after a short pause, while the picker shows itself
 * busy; a newer query cancels an older one, whose results are dropped. Each match is a row with the session's
 * title and a snippet of where its transcript matched; rows the title already matches stay in the sections above.
 */
import * as vscode from 'vscode';
import type { HistoryItem } from '../../host/history/sessionHistory';
import { minQueryLength, SearchCancelled, type SearchOptions, type TranscriptMatch } from '../../host/history/transcriptSearch';
import { sessionKey } from '../../host/sessionKey';
import { inert, inertText } from '../../shared/inertText';
import { rowTitle } from '../../shared/sessionTitles';

/** A row of Switch Session: a history item, or a separator or New Session without one. */
export interface Row extends vscode.QuickPickItem { readonly item?: HistoryItem }

/** Where the transcripts are searched (the transcript store). */
export interface TranscriptSearchSource {
  search(query: string, options?: SearchOptions): Promise<TranscriptMatch[]>;
}

const typingPauseMs = 200;

/** The rows of the transcript matches of `query` among `items` (sessions whose title contains it are left out). */
export function matchRows(matches: readonly TranscriptMatch[], items: readonly HistoryItem[], query: string): Row[] {
  const byKey = new Map(items.map((i) => [sessionKey(i.agentId, i.sessionId), i]));
  const q = query.trim().toLowerCase();
  return matches.flatMap((m) => {
    const item = byKey.get(sessionKey(m.agentId, m.sessionId));
    if (!item || item.title.toLowerCase().includes(q)) return [];
    return [{ label: inert.label`$(search) ${rowTitle(item)}`, description: inertText(item.agentName, 'label'), detail: inertText(m.snippet, 'label'), item, alwaysShow: true }];
  });
}

/** Searches the transcripts as the user types into `qp`; `set` gets the rows of the newest query. */
export function transcriptRows(source: TranscriptSearchSource, qp: vscode.QuickPick<Row>, items: () => readonly HistoryItem[], set: (rows: Row[]) => void): vscode.Disposable {
  let version = 0;
  let timer: NodeJS.Timeout | undefined;
  const run = (query: string) => {
    const mine = ++version;
    if (query.trim().length < minQueryLength) {
      qp.busy = false;
      return set([]);
    }
    qp.busy = true;
    source.search(query, { isCancelled: () => mine !== version }).then((matches) => {
      if (mine === version) set(matchRows(matches, items(), query));
    }, (e: unknown) => {
      if (!(e instanceof SearchCancelled) && mine === version) set([]);
    }).finally(() => { if (mine === version) qp.busy = false; });
  };
  const sub = qp.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    version++; // what an older query finds is not wanted any more
    timer = setTimeout(() => { timer = undefined; run(value); }, typingPauseMs);
  });
  return { dispose: () => { if (timer) clearTimeout(timer); version++; sub.dispose(); } };
}
