/**
 * Serializable types of the composer (prompt box) shared by the host and the chat webview: attachments,
 * the draft, the queue of prompts waiting for the turn to end, file-search results and the limits both
 * sides enforce. No vscode, no node, no DOM here (docs/architecture.md#layers).
 */

/** Largest image the composer attaches, in bytes (decoded). Bigger images are refused with a message. */
export const imageMaxBytes = 5 * 1024 * 1024;
/** Characters of base64 an image may have on the wire (4/3 of {@link imageMaxBytes}, rounded up). */
export const imageMaxBase64 = Math.ceil(imageMaxBytes / 3) * 4;
/** Largest file text embedded as a `resource` (characters); bigger files are sent as `resource_link`. */
export const embeddedTextMaxChars = 256 * 1024;
/** Most attachments on one prompt. */
export const attachmentsMax = 20;
/** Most file matches the @-mention picker shows. */
export const fileMatchesMax = 50;
/** Prompts kept in the history. */
export const historyMax = 100;

/** Image types the composer accepts (those agents commonly take). */
export const imageMimeTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Something attached to a prompt, shown as a chip. `id` is unique within a draft or a queued prompt. */
export type AttachmentView =
  /** A workspace file: sent as `resource_link`, or as an embedded `resource` with its text. */
  | { readonly kind: 'file'; readonly id: string; readonly uri: string; readonly name: string }
  /** Lines of a file (1-based, inclusive) with the text that was selected. */
  | { readonly kind: 'selection'; readonly id: string; readonly uri: string; readonly name: string; readonly startLine: number; readonly endLine: number; readonly text: string }
  /** A pasted or dropped image, base64 without the `data:` prefix. */
  | { readonly kind: 'image'; readonly id: string; readonly name: string; readonly mimeType: string; readonly data: string };

/** What the user is writing: text plus attachments. `rev` grows with every edit (the newer copy wins). */
export interface DraftView {
  readonly text: string;
  readonly attachments: readonly AttachmentView[];
  readonly rev: number;
}

/** A prompt written while the agent was working, sent when the turn ends. */
export interface QueuedPromptView {
  readonly id: string;
  readonly text: string;
  readonly attachments: readonly AttachmentView[];
}

/** Which key sends: Enter (Shift+Enter adds a line) or Ctrl/Cmd+Enter (Enter adds a line). */
export type SendWith = 'enter' | 'ctrlEnter';

/** What the agent accepts in a prompt (`promptCapabilities`, https://agentclientprotocol.com/protocol/initialization). */
export interface PromptCapabilitiesView {
  readonly image: boolean;
  readonly audio: boolean;
  readonly embeddedContext: boolean;
}

/** The composer's state held by the host, sent on ready and whenever it changes. */
export interface ComposerStateView {
  readonly queue: readonly QueuedPromptView[];
  /** Earlier prompts, oldest first. */
  readonly history: readonly string[];
  /** The unsent draft the host kept (absent when there is none). */
  readonly draft?: DraftView;
  readonly sendWith: SendWith;
  readonly capabilities: PromptCapabilitiesView;
  /** The agent takes a message while it works: the composer offers Send Now beside Queue (docs/chat.md, "Send now"). */
  readonly steering?: boolean;
}

/** One match of the @-mention file search. */
export interface FileMatchView {
  readonly uri: string;
  /** The file name. */
  readonly name: string;
  /** The workspace-relative folder, for telling files of the same name apart. */
  readonly detail: string;
}

/** How a message sent while the agent worked was taken (docs/chat.md, "Send now"), as the chat and the Markdown export say it. */
export const steeredLabels: Readonly<Record<'injected' | 'startedNewTurn', string>> = {
  injected: 'Sent while the agent worked',
  startedNewTurn: 'Sent while the agent worked: it started a turn of its own',
};
