/**
 * The client's own transcript store: every session's transcript is kept in the extension's storage for
 * this workspace (`context.storageUri`, else the global storage), append-only and crash-safe
 * (src/host/history/transcriptLog.ts), capped by `switchboard.history.maxSizeMB` with the oldest sessions evicted
 * first. History is therefore browsable for every agent, and `session/resume` renders from it.
 */
import * as vscode from 'vscode';
import { TranscriptDirectory } from './transcriptDirectory';
import type { TranscriptInfo } from './transcriptDirectory';
import type { Redactor } from '../auth/redactor';
import type { Transcript, TranscriptHeader, TranscriptWriter } from './transcriptLog';
import type { AgentSession } from '../agentSession';
import { ThreadRecorder } from './transcriptRecorder';
import { searchTranscripts, type SearchOptions, type TranscriptMatch } from './transcriptSearch';

const flushMs = 250;

/** Records one session's transcript. */
export interface TranscriptRecording extends vscode.Disposable {
  /** Replaces the log with the thread as it is now (after `session/load` replayed the history). */
  compact(): Promise<void>;
  /** Records the user's queued prompts. */
  recordQueue(queue: readonly unknown[]): void;
}

/** The transcript store of this workspace. */
export class TranscriptStore implements vscode.Disposable {
  private readonly _dir: TranscriptDirectory;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a stored session was added, removed or updated. */
  readonly onDidChange = this._onDidChange.event;

  /** `redactor` masks secrets in everything written (src/shared/secretMasker.ts). */
  constructor(context: vscode.ExtensionContext, private readonly log: vscode.LogOutputChannel, redactor: Pick<Redactor, 'redact'>) {
    const base = context.storageUri ?? vscode.Uri.joinPath(context.globalStorageUri, 'no-workspace');
    this._dir = new TranscriptDirectory(vscode.Uri.joinPath(base, 'transcripts').fsPath, maxBytes, (text) => redactor.redact(text));
    try {
      this._dir.load();
    } catch (error) {
      log.error(`the transcript store could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Stored sessions, most recent first. */
  list(): TranscriptInfo[] {
    return this._dir.list();
  }

  /** A stored session's row. */
  info(agentId: string, sessionId: string): TranscriptInfo | undefined {
    return this._dir.info(agentId, sessionId);
  }

  /** A stored transcript. */
  read(agentId: string, sessionId: string): Transcript | undefined {
    try {
      return this._dir.read(agentId, sessionId);
    } catch (error) {
      this.log.warn(`transcript of ${sessionId} could not be read: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * The stored sessions whose transcript contains `query`, most recent first, read a chunk at a time
   * (transcriptSearch.ts); the open sessions' pending records are written first.
   */
  search(query: string, options?: SearchOptions): Promise<TranscriptMatch[]> {
    try {
      this._dir.flushSync();
    } catch (error) {
      this.log.warn(`the transcript store could not be flushed before a search: ${String(error)}`);
    }
    return searchTranscripts(this._dir.list(), query, options);
  }

  /** Deletes a stored session. */
  remove(agentId: string, sessionId: string): void {
    if (this._dir.remove(agentId, sessionId)) this._onDidChange.fire();
  }

  /**
   * Records a session and its prompt queue: a queue read back from disk (`storedQueue`) is validated and
   * restored first (an invalid one is dropped and logged), then every change of the queue is recorded too.
   */
  recordSession(session: AgentSession, paused = false, storedQueue?: readonly unknown[]): { compact(): Promise<void>; dispose(): void } {
    const recording = this.record(session, paused);
    const queue = session.queue;
    if (storedQueue?.length) {
      const invalid = queue.restoreStored(storedQueue);
      if (invalid) session.context.log.warn(`the stored queue of session ${session.sessionId} is not valid and was dropped: ${invalid}`);
    }
    const sub = queue.onDidChange(() => recording.recordQueue(queue.toJSON()));
    return { compact: () => recording.compact(), dispose: () => { sub.dispose(); recording.dispose(); } };
  }

  /**
   * Starts recording a session: every entry change, appended text, title and plan. `paused` records
   * nothing until {@link TranscriptRecording.compact} (used while `session/load` replays).
   */
  record(session: AgentSession, paused = false): TranscriptRecording {
    const header: TranscriptHeader = {
      k: 'meta', v: 1, sessionId: session.sessionId, agentId: session.host.definition.id,
      agentName: session.host.definition.name, cwd: session.cwd, createdAt: session.thread.titles.createdAt ?? Date.now(),
    };
    let writer: TranscriptWriter;
    try {
      writer = this._dir.writer(header);
    } catch (error) {
      this.log.error(`transcript of ${session.sessionId} cannot be written: ${String(error)}`);
      return { dispose: () => undefined, compact: async () => undefined, recordQueue: () => undefined };
    }
    this._onDidChange.fire();
    const thread = session.thread;
    let recording = !paused;
    let timer: NodeJS.Timeout | undefined;
    const recorder = new ThreadRecorder(thread, writer);
    const flush = (final = false) => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!writer.hasPending) return;
      void writer.flush(final).then(() => {
        this._dir.touched(header.agentId, header.sessionId, thread.title);
        this._onDidChange.fire();
      });
    };
    const sub = thread.onDidChange((c) => {
      if (!recording) return;
      const step = recorder.change(c);
      if (step === 'turnEnd') flush(true); // with the held-back end of the answer (transcriptLog.ts)
      else if (step === 'soon') timer ??= setTimeout(() => flush(), flushMs);
    });
    return {
      compact: async () => {
        recording = true;
        await writer.rewrite(header, thread.entries, thread.title, thread.plan, thread.terminals.views(), thread.plans, thread.planCancelled);
        recorder.resync();
        this._dir.touched(header.agentId, header.sessionId, thread.title);
        this._onDidChange.fire();
      },
      recordQueue: (queue) => { writer.state({ k: 'queue', q: [...queue] }); flush(); },
      dispose: () => {
        sub.dispose();
        if (timer) clearTimeout(timer);
        try {
          recorder.recordTerminals();
          writer.flushSync();
          this._dir.touched(header.agentId, header.sessionId, thread.title);
        } catch (error) {
          this.log.warn(`transcript of ${session.sessionId}: last write failed: ${String(error)}`);
        }
        this._dir.release(header.agentId, header.sessionId);
      },
    };
  }

  /** Writes every open log's pending records and the index now. */
  flush(): void {
    this._dir.flushSync();
  }

  /** Writes everything pending (deactivation). */
  dispose(): void {
    try {
      this._dir.dispose();
    } catch (error) {
      this.log.warn(`the transcript store could not be flushed: ${String(error)}`);
    }
    this._onDidChange.dispose();
  }
}

function maxBytes(): number {
  const mb = vscode.workspace.getConfiguration('switchboard').get<number>('history.maxSizeMB', 100);
  return Math.max(1, Number.isFinite(mb) ? mb : 100) * 1024 * 1024;
}
