/**
 * Ask Several Agents… (docs/worktrees.md "Ask several agents"): one prompt to N agents, or to one agent N times,
 * each run in a worktree of its own on its own branch, all from the commit checked out now. Every run is a normal
 * session. After its turn, the check command runs in its worktree. The compare view (comparePanel.ts, its model in
 * compareModel.ts) shows the runs side by side; Merge takes one, Discard the Others removes the rest after one
 * question. The fan-out's record is saved at every step, so a window reload shows it again (the runs that were
 * working then are "interrupted": their sessions reopen from the Sessions view and continue).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import type { AgentSession } from '../../host/agentSession';
import { sessionKey } from '../../host/sessionKey';
import { inert, inertText } from '../../shared/inertText';
import type { CompareAction } from '../../shared/compareView';
import { runCheck } from '../../worktrees/checkRun';
import type { FanOutRecord } from '../../worktrees/worktreeRecords';
import { ComparePanel, deserializeCompare } from './comparePanel';
import { CompareModel, runIsWorking } from './compareModel';
import { discardWorktree, reviewWorktree } from './worktreeCommands';
import { mergeWorktree } from './mergeFlow';
import { sessionInWorktree, type WorktreeSessionDeps } from './worktreeSessions';
import { errorText } from './worktreeService';

type Run = FanOutRecord['runs'][number];

/** What a fan-out needs. */
export interface FanOutDeps extends WorktreeSessionDeps {
  readonly extensionUri: vscode.Uri;
  readonly state: vscode.Memento;
  readonly activeSession: () => AgentSession | undefined;
}

/** A fan-out asked for without the pickers (the test API, a keybinding's args). */
export interface FanOutRequest {
  readonly agents: readonly string[];
  readonly runsPerAgent?: number;
  readonly prompt: string;
  readonly check?: string;
}

const lastCheckKey = 'switchboard.fanOut.lastCheck';

/** The fan-outs of this window and their compare views. */
export class FanOuts implements vscode.Disposable {
  private readonly _live = new Map<string, AgentSession>();
  private readonly _disposables: vscode.Disposable[] = [];
  /** The window is closing: a turn that ends now was cut off, not done (the next window marks it interrupted). */
  private _closing = false;
  readonly model: CompareModel;

  constructor(private readonly deps: FanOutDeps) {
    this.model = new CompareModel(deps.worktrees, (key) => deps.sessions.get(key), (id) => deps.registry.get(id)?.name, (id) => this.push(id));
    // a run that was working when the window went away is interrupted: its session reopens and continues
    void deps.worktrees.ready.then(async () => {
      for (const f of deps.worktrees.records.fanOuts()) {
        const stale = f.runs.some((r) => runIsWorking(r.status) || r.check?.state === 'running');
        if (stale) await deps.worktrees.putFanOut({ ...f, runs: f.runs.map((r) => interrupted(r)) });
      }
    });
  }

  /** Brings back a compare panel that VS Code restored after a window reload. */
  deserialize(panel: vscode.WebviewPanel, state: unknown): void {
    deserializeCompare(this.deps.extensionUri, panel, state, (id, attach) => attach((a) => void this.act(id, a)));
  }

  /** Runs the command: asks for the agents, the number of runs, the prompt and the check (unless `req` says). */
  async ask(req?: FanOutRequest): Promise<string | undefined> {
    const request = req ?? await this.askUser();
    if (!request) return undefined;
    const defs = request.agents.map((id) => this.deps.registry.get(id));
    const missing = request.agents.filter((_id, i) => !defs[i]);
    if (missing.length) throw new Error(`No agent with id ${missing.map((m) => `'${m}'`).join(', ')} is configured.`);
    let base;
    try {
      base = await this.deps.worktrees.baseOf(this.deps.sessions.defaultCwd());
    } catch (error) {
      void vscode.window.showErrorMessage(inert.message`Switchboard: ${errorText(error)}`);
      return undefined;
    }
    const n = Math.max(1, Math.min(8, Math.floor(request.runsPerAgent ?? 1)));
    const plan = (defs as AgentDefinition[]).flatMap((def) => Array.from({ length: n }, (_x, i) => ({ def, name: [def.id, n > 1 ? String(i + 1) : '', request.prompt.slice(0, 60)].join(' ') })));
    const record: FanOutRecord = {
      id: randomBytes(6).toString('hex'), prompt: request.prompt, ...(request.check ? { check: request.check } : {}), top: base.info.top,
      baseBranch: base.info.branch ?? base.info.head, baseCommit: base.info.head, createdAt: Date.now(),
      runs: plan.map((p) => ({ id: randomBytes(4).toString('hex'), worktreeId: '', agentId: p.def.id, status: 'starting' as const })),
    };
    await this.deps.worktrees.putFanOut(record);
    this.show(record.id);
    // one after the other to make the worktrees and start the agents; the turns then run at the same time
    for (const [i, p] of plan.entries()) {
      const runId = record.runs[i].id;
      try {
        const { session, record: wt } = await sessionInWorktree(this.deps, p.def, { name: p.name, fanOutId: record.id });
        this._live.set(runId, session);
        await this.update(record.id, runId, { worktreeId: wt.id, sessionKey: session.key, startedAt: Date.now(), status: 'running' });
        void this.runTurn(record.id, runId, session, request.prompt);
      } catch (error) {
        await this.update(record.id, runId, { status: 'failed', error: errorText(error), endedAt: Date.now() });
      }
    }
    return record.id;
  }

  /** The compare view of a fan-out (opened, or brought to the front). */
  show(id: string): ComparePanel | undefined {
    const record = this.record(id);
    if (!record) return undefined;
    const panel = ComparePanel.show(this.deps.extensionUri, id, inert.label`Compare: ${record.prompt.slice(0, 40)}`, (a) => void this.act(id, a));
    this.model.invalidate(id);
    return panel;
  }

  /** Picks a fan-out of this workspace's and shows it. */
  async pickAndShow(): Promise<void> {
    await this.deps.worktrees.ready;
    const all = [...this.deps.worktrees.records.fanOuts()].sort((a, b) => b.createdAt - a.createdAt);
    if (!all.length) return void vscode.window.showInformationMessage('No comparison yet: ACP: Ask Several Agents… starts one.');
    const pick = all.length === 1 ? { id: all[0].id } : await vscode.window.showQuickPick(all.map((f) => ({
      label: inertText(f.prompt.split('\n')[0].slice(0, 80), 'label'), description: inert.label`${f.runs.length} runs · ${new Date(f.createdAt).toLocaleString()}`, id: f.id,
    })), { title: 'ACP: Show Agent Comparison' });
    if (pick) this.show(pick.id);
  }

  private record(id: string): FanOutRecord | undefined {
    return this.deps.worktrees.records.fanOuts().find((f) => f.id === id);
  }

  private async update(id: string, runId: string, change: Partial<Run>): Promise<void> {
    const f = this.record(id);
    if (!f) return;
    await this.deps.worktrees.putFanOut({ ...f, runs: f.runs.map((r) => (r.id === runId ? { ...r, ...change } : r)) });
    this.model.invalidate(id, runId);
  }

  private push(id: string): void {
    const panel = ComparePanel.get(id);
    if (panel) void this.model.view(id).then((v) => v && panel.update(v));
  }

  /** Sends the prompt, follows the run's state, then runs the check in its worktree. */
  private async runTurn(id: string, runId: string, session: AgentSession, prompt: string): Promise<void> {
    const sub = session.activity.onDidChange((state) => {
      const status = state.kind === 'waiting' ? 'waiting' : state.kind === 'streaming' ? 'running' : undefined;
      const run = this.record(id)?.runs.find((r) => r.id === runId);
      if (status && run && run.status !== status) void this.update(id, runId, { status });
      else this.model.invalidate(id);
    });
    try {
      await session.submit(prompt);
      if (this._closing) return;
      const failed = session.activity.state.kind === 'failed';
      await this.update(id, runId, { status: failed ? 'failed' : 'done', endedAt: Date.now() });
    } catch (error) {
      await this.update(id, runId, { status: 'failed', error: errorText(error), endedAt: Date.now() });
    } finally {
      sub.dispose();
    }
    if (!this._closing) await this.check(id, runId);
  }

  /** Runs the fan-out's check command in a run's worktree. */
  private async check(id: string, runId: string): Promise<void> {
    const f = this.record(id);
    const run = f?.runs.find((r) => r.id === runId);
    const wt = run && this.deps.worktrees.records.worktrees().find((w) => w.id === run.worktreeId);
    if (!f?.check || !run || !wt || wt.state !== 'active') return;
    await this.update(id, runId, { check: { state: 'running', command: f.check, output: '' } });
    const cwd = this._live.get(runId)?.cwd ?? wt.path;
    try {
      const r = await runCheck(f.check, cwd, {});
      const output = this.deps.worktrees.redact(r.output);
      await this.update(id, runId, { check: { state: r.exitCode === 0 && !r.timedOut ? 'passed' : 'failed', command: f.check, exitCode: r.exitCode, durationMs: r.durationMs, output: r.timedOut ? `${output}\n(stopped: it ran too long)` : output } });
    } catch (error) {
      await this.update(id, runId, { check: { state: 'failed', command: f.check, output: errorText(error) } });
    }
  }

  /** What the compare view asked for. */
  async act(id: string, action: CompareAction): Promise<void> {
    if (action.type === 'ready') return this.push(id);
    const f = this.record(id);
    const run = f?.runs.find((r) => r.id === action.runId);
    const wt = run && this.deps.worktrees.records.worktrees().find((w) => w.id === run.worktreeId);
    if (!f || !run) return;
    const cmd = { sessions: this.deps.sessions, worktrees: this.deps.worktrees, activeSession: this.deps.activeSession };
    switch (action.type) {
      case 'open': return this.openRun(run);
      case 'review': if (wt) await reviewWorktree(cmd, wt); return;
      case 'rerunCheck': return this.check(id, run.id);
      case 'merge': {
        if (!wt) return;
        const outcome = await mergeWorktree(cmd, wt, { title: f.prompt.split('\n')[0].slice(0, 60) });
        if (outcome.kind === 'merged' || outcome.kind === 'conflicts') {
          await this.deps.worktrees.putFanOut({ ...f, merged: run.id });
          await this.update(id, run.id, { status: 'merged' });
        }
        return;
      }
      case 'discard': {
        if (wt && await discardWorktree(cmd, wt)) await this.update(id, run.id, { status: 'discarded' });
        return;
      }
      case 'discardOthers': return this.discardOthers(f, run);
    }
  }

  private async discardOthers(f: FanOutRecord, keep: Run): Promise<void> {
    const others = f.runs.filter((r) => r.id !== keep.id && r.status !== 'discarded' && r.status !== 'merged');
    if (!others.length) return;
    const pick = await vscode.window.showWarningMessage(
      inert.message`Discard the other ${others.length} ${others.length === 1 ? 'run' : 'runs'}?`,
      { modal: true, detail: 'Their sessions close and their worktree folders are removed. Keep their branches to come back to their commits.' },
      'Discard, Keep Branches', 'Discard Worktrees and Branches',
    );
    if (!pick) return;
    const cmd = { sessions: this.deps.sessions, worktrees: this.deps.worktrees, activeSession: this.deps.activeSession };
    for (const r of others) {
      const wt = this.deps.worktrees.records.worktrees().find((w) => w.id === r.worktreeId);
      if (wt && wt.state !== 'discarded' && !await discardWorktree(cmd, wt, pick === 'Discard Worktrees and Branches' ? 'branch' : 'folder')) continue;
      await this.update(f.id, r.id, { status: 'discarded' });
    }
  }

  /** Opens a run's chat: the live session, or the session reopened in its worktree. */
  private async openRun(run: Run): Promise<void> {
    const live = run.sessionKey ? this.deps.sessions.get(run.sessionKey) : undefined;
    if (live) return this.deps.openChat(live);
    const wt = this.deps.worktrees.records.worktrees().find((w) => w.id === run.worktreeId);
    const def = this.deps.registry.get(run.agentId);
    const sessionId = run.sessionKey?.slice(run.agentId.length + 1);
    if (!wt || !sessionId || run.sessionKey !== sessionKey(run.agentId, sessionId)) return void vscode.window.showInformationMessage('This run has no session to open.');
    try {
      const s = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Reopening the run\'s session…' }, () => this.deps.sessions.open({ agentId: run.agentId, sessionId, cwd: wt.path }, def));
      this.deps.openChat(s);
    } catch (error) {
      void vscode.window.showErrorMessage(inert.message`Switchboard: the session did not open. ${errorText(error)}`);
    }
  }

  /** The pickers: agents, runs per agent, the prompt, the check. */
  private async askUser(): Promise<FanOutRequest | undefined> {
    const title = 'ACP: Ask Several Agents';
    const picks = await vscode.window.showQuickPick(this.deps.registry.all().map((a) => ({ label: inertText(a.name, 'label'), id: a.id })), {
      title, canPickMany: true, placeHolder: 'Choose the agents: each works in a worktree of its own (one agent: it runs several times)',
    });
    if (!picks?.length) return undefined;
    let runsPerAgent = 1;
    if (picks.length === 1) {
      const n = await vscode.window.showQuickPick(['2', '3', '4'].map((label) => ({ label, description: 'runs' })), { title, placeHolder: inert.label`How many times should ${picks[0].label} answer?` });
      if (!n) return undefined;
      runsPerAgent = Number(n.label);
    }
    const prompt = await vscode.window.showInputBox({ title, prompt: 'The prompt every run gets', placeHolder: 'What should they do?', validateInput: (v) => (v.trim() ? undefined : 'Write the prompt') });
    if (!prompt?.trim()) return undefined;
    const check = await this.askCheck(title);
    if (check === undefined) return undefined;
    return { agents: picks.map((p) => p.id), runsPerAgent, prompt: prompt.trim(), ...(check ? { check } : {}) };
  }

  /** The check: none, a command line, or a shell task of the workspace (its command line, run in each worktree). */
  private async askCheck(title: string): Promise<string | undefined> {
    const last = this.deps.state.get<string>(lastCheckKey);
    const tasks = await Promise.resolve(vscode.tasks.fetchTasks()).catch(() => [] as vscode.Task[]);
    type Item = vscode.QuickPickItem & { value?: string; ask?: true };
    const items: Item[] = [
      { label: '$(circle-slash) No check', value: '' },
      { label: '$(terminal) Command Line…', description: last ? inertText(last, 'label') : 'e.g. npm test', ask: true },
      ...tasks.flatMap((t): Item[] => {
        const line = t.execution instanceof vscode.ShellExecution ? t.execution.commandLine ?? [t.execution.command, ...(t.execution.args ?? [])].map((a) => (typeof a === 'string' ? a : a?.value ?? '')).join(' ')
          : t.execution instanceof vscode.ProcessExecution ? [t.execution.process, ...t.execution.args].join(' ') : undefined;
        return line ? [{ label: inert.label`$(tools) ${t.name}`, description: inertText(line, 'label'), detail: 'Task: its command runs in each worktree', value: line }] : [];
      }),
    ];
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'A check to run in each worktree after its turn (its exit code decides)' });
    if (!pick) return undefined;
    if (!pick.ask) return pick.value ?? '';
    const line = await vscode.window.showInputBox({ title, prompt: 'The command line to run in each worktree after its turn', value: last ?? 'npm test' });
    if (line === undefined) return undefined;
    if (line.trim()) await this.deps.state.update(lastCheckKey, line.trim());
    return line.trim();
  }

  dispose(): void {
    this._closing = true;
    this._disposables.splice(0).forEach((d) => d.dispose());
  }
}

function interrupted(r: Run): Run {
  const working = runIsWorking(r.status);
  const check = r.check?.state === 'running' ? { ...r.check, state: 'pending' as const, output: 'Interrupted by a window reload: Re-run Check runs it again.' } : r.check;
  return { ...r, ...(working ? { status: 'interrupted' as const, endedAt: r.endedAt ?? Date.now() } : {}), ...(check ? { check } : {}) };
}
