/**
 * Follow Agent: a per-session toggle. While it is on, each tool call's `locations`
 * (https://agentclientprotocol.com/protocol/tool-calls#following-the-agent) opens the file as a preview beside the chat (never in place of it, never taking the focus), reveals the
 * line and briefly highlights it; an edit highlights its changed lines. Bursts are throttled: the latest
 * location wins within {@link followThrottleMs}. The same unchanged tool call is not shown twice.
 */
import * as vscode from 'vscode';
import { chatViewType } from '../../constants';
import type { ToolCallEntry } from '../../thread/model/toolCall';
import { followThrottleMs, LatestWinsThrottle } from './followThrottle';
import { followTarget, locateEdit } from './followTarget';
import type { FollowTarget, LineRange } from './followTarget';
import type { SessionContext, SessionPart } from '../sessionContext';

/** How long a highlight stays, ms. */
export const followHighlightMs = 1500;

/** The follow-along state of one session. */
export class FollowAgent implements vscode.Disposable {
  private readonly _shown = new Map<string, string>();
  private readonly _throttle = new LatestWinsThrottle<FollowTarget>((t) => this.enqueue(t), followThrottleMs);
  private _queue: Promise<void> = Promise.resolve();
  private _highlight: { editor: vscode.TextEditor; type: vscode.TextEditorDecorationType; timer: NodeJS.Timeout } | undefined;
  private readonly _lineType = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.rangeHighlightForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private readonly _editType = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private readonly _onDidToggle = new vscode.EventEmitter<void>();
  /** Fires when following was turned on or off (the status bar follows every session's: src/core.ts). */
  readonly onDidToggle = this._onDidToggle.event;
  /** The last file shown (tests and the status bar tooltip read it). */
  lastShown: { readonly path: string; readonly ranges: readonly LineRange[] } | undefined;

  constructor(readonly ctx: SessionContext) {}

  /** True while following is on (the host's state: the chat header and the status bar show it). */
  get enabled(): boolean {
    return this._enabled;
  }
  private _enabled = false;

  /** Turns following on or off; the chat header and the status bar show the new state. */
  toggle(on = !this.enabled): void {
    if (on === this.enabled) return;
    this._enabled = on;
    if (!on) this._throttle.clear();
    this.ctx.log.info(`Follow Agent ${on ? 'on' : 'off'} for session ${this.ctx.sessionId}`);
    this._onDidToggle.fire();
  }

  /** Called whenever a tool call of the session was added or changed. */
  onToolCall(entry: ToolCallEntry): void {
    if (!this.enabled) return;
    const target = followTarget(entry);
    if (!target || this._shown.get(target.toolCallId) === target.key) return;
    this._shown.set(target.toolCallId, target.key);
    this._throttle.push(target);
  }

  private enqueue(target: FollowTarget): void {
    // one at a time, in order: opening an editor is async
    this._queue = this._queue.then(() => this.show(target)).catch((error: unknown) => {
      this.ctx.log.warn(`Follow Agent could not show ${target.path}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  private async show(target: FollowTarget): Promise<void> {
    if (!this.enabled) return;
    const uri = vscode.Uri.file(target.path);
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!stat || stat.type & vscode.FileType.Directory) return; // not created yet, or a folder (a search)
    const document = await vscode.workspace.openTextDocument(uri);
    const ranges = target.change ? locateEdit(document.getText(), target.change, target.line) : [];
    const lines = ranges.length ? ranges : target.line !== undefined ? [{ start: target.line, end: target.line }] : [];
    const last = document.lineCount - 1;
    const clamped = lines.map((r) => ({ start: Math.min(r.start, last), end: Math.min(r.end, last) }));
    const first = clamped[0];
    const at = first ? new vscode.Range(first.start, 0, first.start, 0) : undefined;
    const editor = await vscode.window.showTextDocument(document, {
      preview: true, preserveFocus: true, viewColumn: followColumn(), ...(at ? { selection: at } : {}),
    });
    this.lastShown = { path: target.path, ranges: clamped };
    if (!first) return;
    const span = new vscode.Range(first.start, 0, clamped[clamped.length - 1].end, 0);
    editor.revealRange(span, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.highlight(editor, target.isEdit ? this._editType : this._lineType, clamped.map((r) => new vscode.Range(r.start, 0, r.end, 0)));
  }

  private highlight(editor: vscode.TextEditor, type: vscode.TextEditorDecorationType, ranges: vscode.Range[]): void {
    this.clearHighlight();
    editor.setDecorations(type, ranges);
    const timer = setTimeout(() => this.clearHighlight(), followHighlightMs);
    this._highlight = { editor, type, timer };
  }

  private clearHighlight(): void {
    const h = this._highlight;
    if (!h) return;
    this._highlight = undefined;
    clearTimeout(h.timer);
    try {
      h.editor.setDecorations(h.type, []);
    } catch {
      // the editor was closed meanwhile: nothing left to clear
    }
  }

  dispose(): void {
    this._throttle.dispose();
    this.clearHighlight();
    this._lineType.dispose();
    this._editType.dispose();
    this._onDidToggle.dispose();
  }
}

/** Each session's Follow Agent: it sees every tool call of the session as it is added or changed. */
export const followPart: SessionPart<FollowAgent> = {
  name: 'Follow Agent',
  create: ({ context, track }) => {
    const follow = new FollowAgent(context);
    track(context.thread.onDidChange((c) => {
      if (c.type !== 'entry') return;
      const entry = context.thread.entries[c.index];
      if (entry?.kind === 'toolCall') follow.onToolCall(entry);
    }));
    return follow;
  },
};

/** True when a tab shows a Switchboard chat panel. */
function isChatTab(tab: vscode.Tab | undefined): boolean {
  return tab?.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(chatViewType);
}

/** The last editor group that does not show a chat panel, else the column beside the active one. */
function followColumn(): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all.filter((g) => !isChatTab(g.activeTab));
  return groups.length ? groups[groups.length - 1].viewColumn : vscode.ViewColumn.Beside;
}
