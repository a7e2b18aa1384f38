/**
 * A session's title, from its sources in order of precedence: the title the user gave it (Rename Session:
 * kept by the client, docs/sessions.md "Organizing sessions"), the agent's (`session_info_update`), then
 * the base title: one restored from the client's store, a provisional one (a fork is "<source> (fork)"), or,
 * for an untitled session, its first prompt (src/thread/util/promptTitle.ts). Every surface shows the one value;
 * until there is one, they show {@link ThreadTitle.shown}: the agent and the time the session was created.
 */
import type { ContentBlock } from '../../acp/schema/types.gen';
import { untitledTitle } from '../../shared/sessionTitles';
import { promptTitle } from '../util/promptTitle';

/** The title of one thread. */
export class ThreadTitle {
  private _user: string | undefined;
  private _agent: string | undefined;
  private _base = '';
  /** The title taken from the first prompt, which a cleared agent title falls back to. */
  private _fromPrompt: string | undefined;
  private _untitled = untitledTitle('', undefined);
  /** When the client first recorded the session (milliseconds since the epoch), once known. */
  createdAt: number | undefined;

  /** The title, else the untitled session's name (src/shared/viewModel.ts `untitledTitle`). */
  get shown(): string {
    return this.value || this._untitled;
  }

  /** The untitled session's name, for the chat's header. */
  get untitled(): string {
    return this._untitled;
  }

  /** Names the session while it has no title: its agent and when it was created. */
  setOrigin(agentName: string, createdAt: number): void {
    this.createdAt = createdAt;
    this._untitled = untitledTitle(agentName, createdAt);
  }

  /** What every surface shows. */
  get value(): string {
    return this._user || this._agent || this._base;
  }

  /** The title the user gave, if any. */
  get user(): string | undefined {
    return this._user;
  }

  /** The agent's `session_info_update` title: null or empty clears it (back to the prompt's). True when the value changed. */
  fromAgent(title: string | null): boolean {
    return this.change(() => {
      this._agent = title || undefined;
      if (!this._agent) this._base = this._fromPrompt ?? '';
    });
  }

  /** A prompt was sent: the first one names a session that has no title at all yet. True when the value changed. */
  fromPrompt(content: readonly ContentBlock[]): boolean {
    if (this.value) return false;
    this._fromPrompt = promptTitle(content);
    return this.change(() => { this._base = this._fromPrompt ?? ''; });
  }

  /** A restored or provisional title (an empty one changes nothing). True when the value changed. */
  restore(title: string): boolean {
    return this.change(() => { if (title) this._base = title; });
  }

  /** The user's title (undefined: none). True when the value changed. */
  setUser(title: string | undefined): boolean {
    return this.change(() => { this._user = title || undefined; });
  }

  private change(apply: () => void): boolean {
    const before = this.value;
    apply();
    return this.value !== before;
  }
}
