/**
 * `ACP: Switch Session…`: a QuickPick of the open sessions and history (the client's store and what running
 * agents list). Each row shows the session's live state (src/shared/sessionState.ts: the same icon and words as
 * the Sessions view and the status bar), the title, the agent, how long it has been so (or when it was last used)
 * and the cwd; the sessions waiting for you come first. Fuzzy search covers description and detail; what the user
 * types is also searched in the transcripts of Switchboard's store (a section "Matches in transcript", filled in
 * asynchronously, the picker busy meanwhile; a newer query cancels an older one). The detail line also says whether
 * the user is signed in to the agent, when it runs and advertises `auth.status`
 * (docs/acp-features.md#accounts-and-model-providers). The session shown before the current one is preselected
 * (recentChats.ts), so Enter switches back; Enter opens or focuses the session; the row buttons close or delete it.
 */
import { rowTitle } from '../../shared/sessionTitles';
import { authSummary } from '../../shared/accountModel';
import type { AgentAuthStatus } from '../../host/agentHost';
import { hasAuthStatus } from '../../host/auth/agentAccounts';
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { relativeTime } from '../../host/history/sessionHistory';
import { sessionKey } from '../../host/sessionKey';
import type { HistoryItem } from '../../host/history/sessionHistory';
import { deleteSessionConfirmed } from './sessionCommands';
import type { ChatOpenOptions, SessionCommandDeps } from './sessionCommands';
import { inert, inertText } from '../../shared/inertText';
import { duration, stateIcon, stateRank, stateWords } from '../../shared/sessionState';
import { commandIds } from '../../constants';
import { transcriptRows, type Row, type TranscriptSearchSource } from './switchSessionSearch';
import { preselectedKey, type ChatFocus } from './recentChats';


const closeButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('close'), tooltip: 'Close Session' };
const deleteButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete Session…' };

/** The label of a history row: the state's icon first (an open session's), then the title. */
export function rowLabel(item: HistoryItem): string {
  const state = item.open?.activity.state;
  const badge = state ? `$(${stateIcon(state)}) ` : item.archived ? '$(archive) ' : '$(history) ';
  return `${badge}${inertText(rowTitle(item), 'label')}`;
}

/** The description: agent, then the live state and for how long (open), else when it was last used (raw text: neutralise it for its sink). */
export function rowDescription(item: HistoryItem, now = Date.now()): string {
  const state = item.open?.activity.state;
  return [item.agentName, state ? `${stateWords(state)} for ${duration(now - state.since)}` : relativeTime(item.updatedAt)].filter(Boolean).join(' · ');
}

/** The detail line: the session's folder, and its other folders when it has some (raw text). */
export function rowFolders(item: HistoryItem): string {
  const more = item.additionalDirectories ?? [];
  return more.length ? `${item.cwd} + ${more.join(', ')}` : item.cwd;
}

/** The detail line: the sign-in state of the agent when it reports one (first: a long path is cut), then the plan step or the folders (raw text). */
export function rowDetail(item: HistoryItem, auth: AgentAuthStatus | undefined): string {
  const step = item.open?.activity.state.planStep;
  const where = step ? `Step: ${step} · ${rowFolders(item)}` : rowFolders(item);
  return auth ? `${authSummary(auth)} · ${where}` : where;
}

/** Open sessions by state (waiting for you first), in history's order within a state. */
export function byStateRank(items: readonly HistoryItem[]): HistoryItem[] {
  const rank = (i: HistoryItem) => (i.open ? stateRank(i.open.activity.state.kind) : 99);
  return items.map((item, index) => ({ item, index })).sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index).map((x) => x.item);
}

/** The sign-in state of the agent of a history item: its open session's agent, else the running agent. */
function authOf(deps: SessionCommandDeps, item: HistoryItem): AgentAuthStatus | undefined {
  const host = item.open?.host ?? deps.sessions.hostOf(item.agentId);
  return host && host.state === 'ready' && hasAuthStatus(host) ? host.authStatus : undefined;
}

/**
 * Opens (or focuses) a history item's session. An archived one is unarchived first, as the schema asks before
 * `session/load` or `session/resume` (the Sessions view shows archived sessions with its Archived filter).
 * `preserveFocus`: the keyboard stays where it is (Space in the Sessions view).
 */
export async function openHistoryItem(deps: SessionCommandDeps, item: HistoryItem, options: ChatOpenOptions = {}): Promise<AgentSession | undefined> {
  if (item.open) {
    deps.openChat(item.open, options);
    return item.open;
  }
  if (item.archived) await deps.sessions.organizer.unarchive(item.agentId, item.sessionId);
  try {
    const session = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: inert.message`Opening ${item.title || 'session'} with ${item.agentName}…`, cancellable: true },
      (_progress, token) => deps.sessions.open({ agentId: item.agentId, sessionId: item.sessionId, cwd: item.cwd, agentName: item.agentName, title: item.title }, deps.registry.get(item.agentId), token, { atOnce: true }),
    );
    deps.openChat(session, options);
    return session;
  } catch (error) {
    void vscode.window.showErrorMessage(inert.message`Could not open the session: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Runs the command. `sessionId` (tests, keybindings with args) skips the picker; `focus` picks the preselected row. */
export async function switchSession(deps: SessionCommandDeps, sessionId?: string, search?: TranscriptSearchSource, focus?: ChatFocus): Promise<AgentSession | undefined> {
  if (sessionId) {
    const item = (await deps.sessions.history()).find((i) => i.sessionId === sessionId);
    if (!item) throw new Error(`No session '${sessionId}' is open or in history.`);
    return openHistoryItem(deps, item);
  }
  const qp = vscode.window.createQuickPick<Row>();
  qp.title = 'ACP: Switch Session';
  qp.placeholder = 'Type to search sessions by title, agent, folder or words in the transcript';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  let base: Row[] = [];
  let items: HistoryItem[] = [];
  let found: Row[] = [];
  const show = () => { qp.items = found.length ? [...base, { label: 'Matches in transcript', kind: vscode.QuickPickItemKind.Separator }, ...found] : base; };
  const refresh = async () => {
    items = byStateRank(await deps.sessions.history());
    const row = (i: HistoryItem): Row => ({
      label: rowLabel(i), description: inertText(rowDescription(i), 'label'), detail: inertText(rowDetail(i, authOf(deps, i)), 'label'), item: i,
      buttons: i.open ? [closeButton, deleteButton] : [deleteButton],
    });
    const section = (label: string, rows: HistoryItem[]): Row[] => (rows.length ? [{ label, kind: vscode.QuickPickItemKind.Separator }, ...rows.map(row)] : []);
    const waiting = items.filter((i) => i.open?.activity.state.kind === 'waiting');
    base = [...section('Waiting for you', waiting), ...section('Open', items.filter((i) => i.open && !waiting.includes(i))), ...section('History', items.filter((i) => !i.open))];
    if (!items.length) base = [{ label: '$(add) New Session…', description: 'No sessions yet' }];
    show();
    const rows = base.filter((r) => r.item);
    const key = (r: Row) => (r.item ? sessionKey(r.item.agentId, r.item.sessionId) : '');
    const pre = focus && !qp.value ? preselectedKey(rows.map(key), { current: focus.current(), recent: focus.recent() }) : undefined;
    const first = pre === undefined ? undefined : rows.find((r) => key(r) === pre);
    if (first) qp.activeItems = [first];
    qp.busy = false;
  };
  const transcripts = search && transcriptRows(search, qp, () => items, (rows) => { found = rows; show(); });
  return new Promise((resolve) => {
    let result: Promise<AgentSession | undefined> = Promise.resolve(undefined);
    qp.onDidTriggerItemButton(async (e) => {
      const item = e.item.item;
      if (!item) return;
      if (e.button === closeButton) { const key = sessionKey(item.agentId, item.sessionId); if (!deps.closeChat(key)) deps.sessions.close(key); }
      else if (e.button === deleteButton && !(await deleteSessionConfirmed(deps, item))) return;
      qp.show();
      await refresh();
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0]?.item;
      if (!item && qp.selectedItems[0]) result = Promise.resolve(vscode.commands.executeCommand(commandIds.newSession)).then(() => undefined);
      if (item) result = openHistoryItem(deps, item);
      qp.hide();
    });
    qp.onDidHide(() => {
      transcripts?.dispose();
      qp.dispose();
      resolve(result);
    });
    qp.show();
    refresh().catch((e: unknown) => {
      qp.busy = false;
      void vscode.window.showErrorMessage(inert.message`Could not list sessions: ${e instanceof Error ? e.message : String(e)}`);
    });
  });
}
