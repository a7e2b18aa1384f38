/**
 * The compare view's model (src/shared/compareView.ts) from a fan-out's record, its runs' live sessions (title,
 * tokens, cost) and git (each run's changed files and diff against the fan-out's base commit). Git is asked again
 * only for a run whose state changed, and at most once a second while its turn runs; views are pushed at most
 * every 250 ms, so a streaming run never floods the webview.
 */
import type { AgentSession } from '../../host/agentSession';
import type { CompareRunView, CompareView } from '../../shared/compareView';
import type { FanOutRecord } from '../../worktrees/worktreeRecords';
import { errorText, type WorktreeService } from './worktreeService';

type Run = FanOutRecord['runs'][number];

interface GitFacts {
  readonly files: CompareRunView['files'];
  readonly diff: string;
  readonly truncated: boolean;
  readonly error?: string;
  readonly at: number;
}

const words: Record<Run['status'], string> = {
  starting: 'Starting', running: 'Working', waiting: 'Waiting for you', done: 'Done', failed: 'Failed',
  interrupted: 'Interrupted (reopen to continue)', merged: 'Merged', discarded: 'Discarded',
};

/** True while a run's turn is under way (starting, working, or waiting for the user). */
export function runIsWorking(status: Run['status']): boolean {
  return status === 'starting' || status === 'running' || status === 'waiting';
}

/** Builds compare views and says when one should be pushed again. */
export class CompareModel {
  private readonly _git = new Map<string, GitFacts>();
  private readonly _stale = new Set<string>();
  private readonly _timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly worktrees: WorktreeService,
    private readonly sessionOf: (key: string) => AgentSession | undefined,
    private readonly agentName: (agentId: string) => string | undefined,
    private readonly push: (id: string) => void,
  ) {}

  /** Something of fan-out `id` changed (of run `runId`: its git facts are read again); the view is pushed soon. */
  invalidate(id: string, runId?: string): void {
    if (runId) this._stale.add(runId);
    if (this._timers.has(id)) return;
    this._timers.set(id, setTimeout(() => {
      this._timers.delete(id);
      this.push(id);
    }, 250));
  }

  /** The view of fan-out `id` now. */
  async view(id: string): Promise<CompareView | undefined> {
    const f = this.worktrees.records.fanOuts().find((x) => x.id === id);
    if (!f) return undefined;
    const runs = await Promise.all(f.runs.map((r) => this.run(f, r)));
    return { id: f.id, prompt: f.prompt, base: f.baseBranch, ...(f.check ? { check: f.check } : {}), runs, ...(f.merged ? { merged: f.merged } : {}), createdAt: f.createdAt };
  }

  private async run(f: FanOutRecord, r: Run): Promise<CompareRunView> {
    const wt = this.worktrees.records.worktrees().find((w) => w.id === r.worktreeId);
    const session = r.sessionKey ? this.sessionOf(r.sessionKey) : undefined;
    const agentName = session?.host.definition.name ?? this.agentName(r.agentId) ?? r.agentId;
    const end = r.endedAt ?? Date.now();
    const durationMs = r.startedAt ? end - r.startedAt : undefined;
    const facts = wt && wt.state === 'active' ? await this.git(r, wt.path, f.baseCommit) : undefined;
    const usage = session?.thread.turnUsage;
    const cost = session?.thread.usage?.cost;
    const secs = durationMs !== undefined ? `${Math.round(durationMs / 1000)} s` : '';
    const statusText = r.status === 'running' || r.status === 'waiting' ? `${words[r.status]}${secs ? ` for ${secs}` : ''}`
      : r.status === 'done' ? `Done${secs ? ` in ${secs}` : ''}`
        : r.status === 'failed' ? `Failed${r.error ? `: ${r.error}` : ''}` : words[r.status];
    return {
      id: r.id, agentName, title: session?.thread.title || f.prompt.split('\n')[0].slice(0, 80), branch: wt?.branch ?? '', status: r.status, statusText,
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(usage ? { tokens: usage.totalTokens } : session?.thread.usage ? { tokens: session.thread.usage.used } : {}),
      ...(cost ? { cost } : {}),
      files: facts?.files ?? [], diff: facts?.diff ?? '', diffTruncated: facts?.truncated ?? false,
      ...(r.check ? { check: r.check } : {}),
      ...(r.error || facts?.error ? { error: r.error ?? facts?.error } : {}),
    };
  }

  /** A run's changed files and diff, read again when stale (at most once a second while it works). */
  private async git(r: Run, dir: string, base: string): Promise<GitFacts> {
    const known = this._git.get(r.id);
    const working = runIsWorking(r.status);
    if (known && !this._stale.has(r.id) && !(working && Date.now() - known.at > 1000)) return known;
    this._stale.delete(r.id);
    try {
      const [files, diff] = await Promise.all([this.worktrees.git.changes(dir, base), this.worktrees.git.diff(dir, base)]);
      const facts = { files, diff: diff.text, truncated: diff.truncated, at: Date.now() };
      this._git.set(r.id, facts);
      return facts;
    } catch (error) {
      const facts = { files: known?.files ?? [], diff: known?.diff ?? '', truncated: false, error: errorText(error), at: Date.now() };
      this._git.set(r.id, facts);
      return facts;
    }
  }
}
