/**
 * "Send now": a message into the turn that is running, for an agent that advertises steering (src/acp/steering.ts,
 * docs/chat.md "Send now"). Each answer is shown as what it is:
 * - `injected`: the message joined the turn. The agents do not echo it, so the chat shows it where it was taken,
 *   marked "sent while the agent worked"; the turn's own `session/prompt` still ends the turn;
 * - `promptRequired`: the turn had ended meanwhile, and nothing was taken: it is sent as the next prompt, before the queue;
 * - `startedNewTurn`: the agent started a turn of its own with it (one that ignores the idle behaviour asked for). No
 *   request of ours ends that turn, so the chat says that its end is not known;
 * - `failed`, an error, or an outcome this client does not know: a notice says that it was not taken (or, for an unknown
 *   outcome, that it may not have been), with Queue It, which puts it in the queue. Nothing the user wrote is lost.
 * One steer at a time per session: a second waits for the first one's answer. Pure (no vscode): unit-tested in node.
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import type { SteeringAnswer } from '../../acp/steering';
import type { AttachmentView } from '../../shared/composerModel';
import type { AcpThread } from '../../thread/model/thread';

/** What steering needs of its session. */
export interface SteeringDeps {
  readonly agentName: string;
  readonly thread: Pick<AcpThread, 'addUserMessage' | 'addNotice' | 'dropNoticeAction'>;
  /** The message's content blocks (attachments read now), as the agent accepts them. */
  blocks(text: string, attachments: readonly AttachmentView[]): Promise<ContentBlock[]>;
  /** Sends `_session/steering`; resolves with the agent's answer, rejects with its error. */
  send(prompt: readonly ContentBlock[]): Promise<SteeringAnswer>;
  /** Sends it as the next prompt, before the queue (now, when no turn runs). */
  sendFirst(text: string, attachments: readonly AttachmentView[]): void;
  /** Puts it in the queue (Queue It). */
  queue(text: string, attachments: readonly AttachmentView[]): void;
}

/** The steering of one session. */
export class Steering {
  private _last: Promise<void> = Promise.resolve();
  /** The message of the newest notice that offers Queue It. */
  private _untaken: { readonly text: string; readonly attachments: readonly AttachmentView[] } | undefined;

  constructor(private readonly deps: SteeringDeps) {}

  /** Sends the message into the running turn; resolves once its answer is shown. Never rejects. */
  steer(text: string, attachments: readonly AttachmentView[]): Promise<void> {
    const next = this._last.then(() => this.steerNow(text, attachments));
    this._last = next;
    return next;
  }

  /** Queue It: the message that was not taken goes to the queue; false when there is none (any more). */
  queueUntaken(): boolean {
    const untaken = this._untaken;
    if (!untaken) return false;
    this._untaken = undefined;
    this.deps.thread.dropNoticeAction('queue');
    this.deps.queue(untaken.text, untaken.attachments);
    return true;
  }

  private async steerNow(text: string, attachments: readonly AttachmentView[]): Promise<void> {
    const { thread, agentName } = this.deps;
    let prompt: ContentBlock[];
    try {
      prompt = await this.deps.blocks(text, attachments);
    } catch (e) {
      return this.notTaken(text, attachments, `it could not be read: ${messageOf(e)}`);
    }
    if (!prompt.length) return this.notTaken(text, attachments, `${agentName} accepts nothing of what it holds`);
    let answer: SteeringAnswer;
    try {
      answer = await this.deps.send(prompt);
    } catch (e) {
      return this.notTaken(text, attachments, messageOf(e));
    }
    switch (answer.outcome) {
      case 'injected':
        thread.addUserMessage(prompt, prompt, 'injected');
        return;
      case 'startedNewTurn':
        thread.addUserMessage(prompt, prompt, 'startedNewTurn');
        thread.addNotice('info', `${agentName} started a turn of its own with this message: what it does shows here, but ${agentName} does not say when that turn ends.`);
        return;
      case 'promptRequired':
        // the turn ended before the message could join it: nothing was taken
        this.deps.sendFirst(text, attachments);
        return;
      case 'failed':
        return this.notTaken(text, attachments, answer.reason ?? `${agentName} answered "failed"`);
      case 'unknown':
        return this.notTaken(text, attachments, `${agentName} answered "${answer.said}", which Switchboard does not know: it may have taken it`);
    }
  }

  private notTaken(text: string, attachments: readonly AttachmentView[], why: string): void {
    this._untaken = { text, attachments };
    this.deps.thread.dropNoticeAction('queue'); // only the newest offers it
    const what = text.trim() ? `"${text.trim().split('\n')[0].slice(0, 80)}"` : 'Your message';
    this.deps.thread.addNotice('warning', `${what} was not sent into the running turn (${why}). Queue It sends it when the turn ends.`, 'queue');
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
