/**
 * PromptMemory: the prompt history (per workspace, shared by its sessions, newest last) and the unsent
 * draft of each session, kept in a Memento (`context.workspaceState`) so both survive window reloads
 * (a half-written prompt must not be lost; Zed users asked for the same, zed#60435). No vscode import:
 * the Memento is a structural type.
 */
import { historyMax } from '../../shared/composerModel';
import type { AttachmentView, DraftView } from '../../shared/composerModel';

/** What PromptMemory needs of a `vscode.Memento`. */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const historyKey = 'switchboard.chat.history';
const draftPrefix = 'switchboard.chat.draft.';

/**
 * Adds a prompt to a history: blank prompts are ignored, a repeat of an older prompt moves it to the end,
 * and only the newest `max` are kept (pure).
 */
export function appendHistory(history: readonly string[], text: string, max = historyMax): string[] {
  const t = text.trim();
  if (!t) return [...history];
  return [...history.filter((h) => h !== t), t].slice(-max);
}

/** Drafts keep files and selections; images are not persisted (they can be megabytes). */
function persistable(draft: DraftView): DraftView {
  const attachments: AttachmentView[] = draft.attachments.filter((a) => a.kind !== 'image');
  return { text: draft.text, attachments, rev: draft.rev };
}

/** Prompt history and drafts of a workspace. */
export class PromptMemory {
  constructor(private readonly memento: MementoLike) {}

  /** Earlier prompts, oldest first. */
  history(): string[] {
    const h = this.memento.get<unknown>(historyKey);
    return Array.isArray(h) ? h.filter((x): x is string => typeof x === 'string') : [];
  }

  /** Records a sent prompt. */
  record(text: string): void {
    void this.memento.update(historyKey, appendHistory(this.history(), text));
  }

  /** The kept draft of a session. */
  draft(sessionId: string): DraftView | undefined {
    const d = this.memento.get<DraftView>(draftPrefix + sessionId);
    return d && typeof d.text === 'string' && Array.isArray(d.attachments) && typeof d.rev === 'number' ? d : undefined;
  }

  /** Keeps a session's draft (an empty draft is removed). */
  saveDraft(sessionId: string, draft: DraftView): void {
    const empty = !draft.text && !draft.attachments.length;
    void this.memento.update(draftPrefix + sessionId, empty ? undefined : persistable(draft));
  }

  /** Forgets a session's draft (the session was closed for good). */
  forgetDraft(sessionId: string): void {
    void this.memento.update(draftPrefix + sessionId, undefined);
  }
}
