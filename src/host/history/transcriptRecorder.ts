/**
 * What the changes of a live thread write to its transcript log (transcriptLog.ts): a new or changed entry whole,
 * text appended to a message as it is, a subagent's card whole, the title, the plan and the plans when they
 * changed, and the agent terminals (their output when they exit or are released, and at the end of a turn). Which
 * `session/update` kinds are kept this way is declared in src/thread/model/updateKinds.ts (`kept`). No vscode:
 * the store around it (transcriptStore.ts) decides when the writer flushes.
 */
import type { AcpThread, ThreadChange } from '../../thread/model/thread';
import type { TranscriptWriter } from './transcriptLog';

/** When to write after a change: not for it, soon (batched), or now with the end of a turn (held-back text too). */
export type RecordStep = 'none' | 'soon' | 'turnEnd';

/** Records one thread's changes into one writer. */
export class ThreadRecorder {
  private _title = '';
  private _plan = '';
  private _plans = '';
  /** Terminals with output not recorded yet: written when they exit or are released, and when a turn ends. */
  private readonly _terminalsChanged = new Set<string>();

  constructor(private readonly thread: AcpThread, private readonly writer: TranscriptWriter) {
    this.resync();
  }

  /** Records what `c` changed; says when to write. */
  change(c: ThreadChange): RecordStep {
    const thread = this.thread;
    switch (c.type) {
      case 'entry':
      case 'subEntry':
      case 'subAppend': { // a subagent's card is written whole (at most once per flush)
        const e = thread.entries[c.index];
        if (e) this.writer.entry(c.index, e);
        return 'soon';
      }
      case 'append': this.writer.append(c.index, c.text); return 'soon';
      case 'terminalOutput': this._terminalsChanged.add(c.terminalId); return 'none'; // not at every chunk: the view is the whole kept output
      case 'terminal': {
        const view = thread.terminals.view(c.terminalId);
        if (view) this.writer.terminal(view);
        this._terminalsChanged.delete(c.terminalId);
        return 'soon';
      }
      case 'title':
      case 'plan':
      case 'status': { // what it keeps, and the turn's end
        if (thread.title !== this._title) this.writer.state({ k: 'title', t: (this._title = thread.title) });
        const plan = this.planKey();
        if (plan !== this._plan) {
          this._plan = plan;
          this.writer.state({ k: 'plan', p: thread.plan, ...(thread.planCancelled ? { c: true as const } : {}) });
        }
        const plans = JSON.stringify(thread.plans);
        if (plans !== this._plans) {
          this._plans = plans;
          this.writer.state({ k: 'plans', p: thread.plans });
        }
        if (thread.status === 'working') return 'soon';
        this.recordTerminals(); // a turn ended: write now, with the output of its terminals
        return 'turnEnd';
      }
      default: return 'none';
    }
  }

  /** Records the terminals whose output changed since they were last recorded. */
  recordTerminals(): void {
    for (const id of this._terminalsChanged) {
      const view = this.thread.terminals.view(id);
      if (view) this.writer.terminal(view);
    }
    this._terminalsChanged.clear();
  }

  /** The log holds the thread as it is now (it was just written whole): only later changes are new. */
  resync(): void {
    this._title = this.thread.title;
    this._plan = this.planKey();
    this._plans = JSON.stringify(this.thread.plans);
  }

  /** The plan with its cancelled mark (a Stop, the window closed during the turn: src/thread/model/plans.ts). */
  private planKey(): string {
    return JSON.stringify([this.thread.plan, this.thread.planCancelled]);
  }
}
