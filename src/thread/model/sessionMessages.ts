/**
 * Messages between sessions (`session_message`, `session_message_chunk`, https://agentclientprotocol.com/protocol/v1/draft/subagents):
 * what a parent sent a subagent, or a subagent its parent, seen in the transcript of one of them. One entry per
 * `messageId`, at the place of its first notification. An upsert patches it (`content` omitted: unchanged, `null`
 * or `[]`: cleared, else replaced; sender and recipient likewise); a chunk appends one block, and a chunk for an
 * id never seen creates the message. Pure: no vscode, no node.
 */
import type { SessionMessage, SessionMessageChunk } from '../../acp/schema/types.gen';
import type { SessionMessageEntry } from './threadEntries';

/** A new, empty message. */
export function newSessionMessage(id: string, messageId: string): SessionMessageEntry {
  return { kind: 'sessionMessage', id, messageId, content: [] };
}

/** Applies a `session_message` upsert (patch semantics, see the module header). */
export function applySessionMessage(e: SessionMessageEntry, u: SessionMessage): void {
  if (u.senderSessionId === null) delete e.sender;
  else if (u.senderSessionId !== undefined) e.sender = u.senderSessionId;
  if (u.recipientSessionId === null) delete e.recipient;
  else if (u.recipientSessionId !== undefined) e.recipient = u.recipientSessionId;
  if (u.content !== undefined) e.content = u.content ?? [];
}

/** Applies a `session_message_chunk`: its block is appended. */
export function appendSessionMessageChunk(e: SessionMessageEntry, chunk: Pick<SessionMessageChunk, 'content'>): void {
  e.content.push(chunk.content);
}

/** A message read back from the transcript store, if the record has the shape of one (else it is dropped). */
export function isSessionMessageEntry(v: unknown): v is SessionMessageEntry {
  const e = v as Partial<SessionMessageEntry> | null;
  return !!e && e.kind === 'sessionMessage' && typeof e.id === 'string' && typeof e.messageId === 'string' && Array.isArray(e.content)
    && e.content.every((b) => typeof b === 'object' && b !== null && typeof (b as { type?: unknown }).type === 'string')
    && (e.sender === undefined || typeof e.sender === 'string') && (e.recipient === undefined || typeof e.recipient === 'string');
}
