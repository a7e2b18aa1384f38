/**
 * ACP v2's `session/update`s as the client's v1 updates (docs/acp-v2.md "Updates"). v2 keys messages, tool calls,
 * terminals and compactions by id and sends upserts: a tool call is created by its first `tool_call_update`, a
 * field set to `null` is reset, arrays replace; chunks append. The client's thread reads v1, so this keeps, per
 * session, what the upserts need: each tool call's content (a `tool_call_content_chunk` appends one item to it)
 * and each message's text so far (a whole `agent_message` after its chunks adds what they lacked). Terminals, the
 * foreground state and the background work have no v1 update: they come out as {@link V2Event}s.
 */
import { TextDecoder } from 'node:util';
import type * as v1 from '../schema/types.gen';
import type * as v2 from '../schema/v2/types.gen';
import { commandsV1, configOptionsV1, contentsV1, kindV1, locationsV1, statusV1 } from './v2Shapes';

/** One item of background work (v2 `BackgroundWork`): a terminal, a tool call, a subagent, or a kind not known. */
export interface BackgroundItem {
  readonly type: string;
  readonly id: string;
}

/** What a v2 update means beyond the thread's v1 updates. */
export type V2Event =
  /** A terminal the agent runs: its command, its whole output (`output`, replacing) or more of it (`append`), its end. */
  | { readonly type: 'terminal'; readonly sessionId: string; readonly terminalId: string; readonly command?: string; readonly output?: string; readonly append?: string; readonly exitStatus?: { exitCode: number | null; signal: string | null }; readonly cancellable?: boolean }
  /** The session's foreground state; `background` when the agent reported it (a complete list). */
  | { readonly type: 'state'; readonly sessionId: string; readonly state: string; readonly stopReason?: string; readonly error?: { readonly message: string; readonly code?: number; readonly data?: unknown }; readonly background?: readonly BackgroundItem[] }
  /** What v1 has not of a tool call: whether it can be stopped on its own (`tool_call/cancel`), that it was cancelled. */
  | { readonly type: 'toolCall'; readonly sessionId: string; readonly toolCallId: string; readonly cancellable?: boolean; readonly cancelled?: boolean }
  /** Something the client could not show, for the agent's log. */
  | { readonly type: 'log'; readonly message: string };

type Update = v2.SessionUpdate;
type Of<K extends string> = Extract<Update, { sessionUpdate: K }>;

/** The state of one session's upserts. */
class SessionUpserts {
  /** Each tool call's content (v1 form), to append chunks to. */
  readonly toolContent = new Map<string, v1.ToolCallContent[]>();
  /** Each message's text so far, by kind and id (v2's id spaces are per kind). */
  readonly texts = new Map<string, string>();
  /** Our own prompts not yet echoed as user messages, and the ids of the echoes (not shown twice). */
  awaitingEcho = 0;
  readonly ownMessages = new Set<string>();
  /** Each terminal's decoder: a chunk's bytes may end inside a character. */
  readonly decoders = new Map<string, TextDecoder>();
}

const b64 = (data: string): Uint8Array => Buffer.from(data, 'base64');

export class V2Updates {
  private readonly _sessions = new Map<string, SessionUpserts>();

  private of(sessionId: string): SessionUpserts {
    let s = this._sessions.get(sessionId);
    if (!s) this._sessions.set(sessionId, (s = new SessionUpserts()));
    return s;
  }

  /** A prompt of ours was sent: the next user message that is new is its echo. */
  promptSent(sessionId: string): void {
    this.of(sessionId).awaitingEcho++;
  }

  /** The agent acknowledged our prompt as the message `messageId`. */
  promptInserted(sessionId: string, messageId: string): void {
    const s = this.of(sessionId);
    if (s.ownMessages.has(messageId)) return;
    s.ownMessages.add(messageId);
    s.awaitingEcho = Math.max(0, s.awaitingEcho - 1);
  }

  /** The prompt failed before insertion: no echo comes. */
  promptFailed(sessionId: string): void {
    const s = this.of(sessionId);
    s.awaitingEcho = Math.max(0, s.awaitingEcho - 1);
  }

  /** True once the session's tool call `toolCallId` was announced. */
  knows(sessionId: string, toolCallId: string): boolean {
    return this.of(sessionId).toolContent.has(toolCallId);
  }

  forget(sessionId: string): void {
    this._sessions.delete(sessionId);
  }

  /** One v2 update (validated) as v1 updates and events. */
  translate(sessionId: string, u: Update): { updates: v1.SessionUpdate[]; events: V2Event[] } {
    const updates: v1.SessionUpdate[] = [];
    const events: V2Event[] = [];
    const s = this.of(sessionId);
    switch (u.sessionUpdate) {
      case 'agent_message_chunk': case 'agent_thought_chunk': case 'user_message_chunk': {
        const c = u as Of<'agent_message_chunk'>;
        const kind = u.sessionUpdate.replace('_chunk', '');
        if (kind === 'user_message' && this.ownEcho(s, c.messageId)) break;
        this.addText(s, kind, c.messageId, c.content);
        updates.push({ sessionUpdate: u.sessionUpdate, messageId: c.messageId, content: c.content as v1.ContentBlock } as v1.SessionUpdate);
        break;
      }
      case 'agent_message': case 'agent_thought': case 'user_message': {
        const m = u as Of<'agent_message'>;
        if (u.sessionUpdate === 'user_message' && this.ownEcho(s, m.messageId)) break;
        const rest = this.rest(s, u.sessionUpdate, m.messageId, m.content);
        if (rest === undefined) events.push({ type: 'log', message: `the agent rewrote its ${u.sessionUpdate.replace('_', ' ')} '${m.messageId}' after it was shown; the chat keeps what it showed` });
        for (const content of rest ?? []) updates.push({ sessionUpdate: `${u.sessionUpdate}_chunk`, messageId: m.messageId, content: content as v1.ContentBlock } as v1.SessionUpdate);
        break;
      }
      case 'tool_call_update': this.toolCall(sessionId, s, u as Of<'tool_call_update'>, updates, events); break;
      case 'tool_call_content_chunk': {
        const c = u as Of<'tool_call_content_chunk'>;
        if (!s.toolContent.has(c.toolCallId)) this.toolCall(sessionId, s, { sessionUpdate: 'tool_call_update', toolCallId: c.toolCallId }, updates, events);
        const content = [...(s.toolContent.get(c.toolCallId) ?? []), ...contentsV1([c.content])];
        s.toolContent.set(c.toolCallId, content);
        updates.push({ sessionUpdate: 'tool_call_update', toolCallId: c.toolCallId, content });
        break;
      }
      case 'terminal_update': {
        const t = u as Of<'terminal_update'>;
        const output = t.output ? new TextDecoder().decode(b64(t.output.data)) : t.output === null ? '' : undefined;
        if (output !== undefined) s.decoders.delete(t.terminalId);
        const exit = t.exitStatus ? { exitCode: t.exitStatus.exitCode ?? null, signal: t.exitStatus.signal ?? null } : undefined;
        events.push({
          type: 'terminal', sessionId, terminalId: t.terminalId,
          ...(typeof t.command === 'string' ? { command: t.command } : {}),
          ...(output !== undefined ? { output } : {}),
          ...(exit ? { exitStatus: exit } : {}),
          ...(t.capabilities !== undefined ? { cancellable: !!t.capabilities?.cancel && !exit } : exit ? { cancellable: false } : {}),
        });
        break;
      }
      case 'terminal_output_chunk': {
        const t = u as Of<'terminal_output_chunk'>;
        let decoder = s.decoders.get(t.terminalId);
        if (!decoder) s.decoders.set(t.terminalId, (decoder = new TextDecoder()));
        events.push({ type: 'terminal', sessionId, terminalId: t.terminalId, append: decoder.decode(b64(t.data), { stream: true }) });
        break;
      }
      case 'state_update': {
        const st = u as Of<'state_update'> & { stopReason?: unknown; error?: unknown; background?: unknown };
        const background = Array.isArray(st.background) ? st.background.map(backgroundItem) : undefined;
        const e = (typeof st.error === 'object' && st.error !== null ? st.error : {}) as { message?: unknown; code?: unknown; data?: unknown };
        const error = typeof e.message === 'string' ? { message: e.message, ...(typeof e.code === 'number' ? { code: e.code } : {}), ...(e.data !== undefined ? { data: e.data } : {}) } : undefined;
        events.push({ type: 'state', sessionId, state: st.state, ...(typeof st.stopReason === 'string' ? { stopReason: st.stopReason } : {}), ...(error ? { error } : {}), ...(background ? { background } : {}) });
        break;
      }
      case 'available_commands_update':
        updates.push({ sessionUpdate: 'available_commands_update', availableCommands: commandsV1((u as Of<'available_commands_update'>).availableCommands) } as unknown as v1.SessionUpdate);
        break;
      case 'config_option_update':
        updates.push({ sessionUpdate: 'config_option_update', configOptions: configOptionsV1((u as Of<'config_option_update'>).configOptions) } as unknown as v1.SessionUpdate);
        break;
      default:
        // the same in v1's unstable schema: plans, usage, notices, compactions, session info, subagents, messages
        // between sessions; v1's own validation judges them next
        updates.push(u as unknown as v1.SessionUpdate);
    }
    return { updates, events };
  }

  /** True for the echo of one of our prompts (shown already, as the user wrote it). */
  private ownEcho(s: SessionUpserts, messageId: string): boolean {
    if (s.ownMessages.has(messageId)) return true;
    if (s.awaitingEcho === 0) return false;
    s.awaitingEcho--;
    s.ownMessages.add(messageId);
    return true;
  }

  private addText(s: SessionUpserts, kind: string, messageId: string, content: v2.ContentBlock): void {
    if (content.type === 'text' && 'text' in content) s.texts.set(`${kind}:${messageId}`, (s.texts.get(`${kind}:${messageId}`) ?? '') + String(content.text));
  }

  /**
   * What a whole message (`content`, replacing) adds to what was shown: all of it for a new message, the rest of its
   * text when it continues what the chunks showed; undefined when it rewrites shown text (the thread appends only).
   */
  private rest(s: SessionUpserts, kind: string, messageId: string, content: readonly v2.ContentBlock[] | null | undefined): v2.ContentBlock[] | undefined {
    const key = `${kind}:${messageId}`;
    const shown = s.texts.get(key);
    if (!content) return [];
    const text = content.map((b) => (b.type === 'text' && 'text' in b ? String(b.text) : '')).join('');
    if (shown === undefined) {
      s.texts.set(key, text);
      return [...content];
    }
    if (!text.startsWith(shown)) return undefined;
    s.texts.set(key, text);
    return text.length > shown.length ? [{ type: 'text', text: text.slice(shown.length) }] : [];
  }

  private toolCall(sessionId: string, s: SessionUpserts, t: Of<'tool_call_update'>, updates: v1.SessionUpdate[], events: V2Event[]): void {
    const known = s.toolContent.has(t.toolCallId);
    const content = t.content !== undefined ? contentsV1(t.content) : undefined;
    s.toolContent.set(t.toolCallId, content ?? s.toolContent.get(t.toolCallId) ?? []);
    const v2Status = typeof t.status === 'string' ? t.status : undefined;
    const fields = {
      toolCallId: t.toolCallId,
      ...(t.title !== undefined || !known ? { title: t.title ?? (typeof t.name === 'string' ? t.name : '') } : {}),
      ...(t.kind !== undefined || !known ? { kind: kindV1(t.kind) } : {}),
      ...(t.status !== undefined || !known ? { status: statusV1(t.status) } : {}),
      ...(content !== undefined ? { content } : {}),
      ...(t.locations !== undefined ? { locations: locationsV1(t.locations) } : {}),
      ...(t.rawInput !== undefined ? { rawInput: t.rawInput } : {}),
      ...(t.rawOutput !== undefined ? { rawOutput: t.rawOutput } : {}),
    };
    updates.push({ sessionUpdate: known ? 'tool_call_update' : 'tool_call', ...fields } as v1.SessionUpdate);
    const final = v2Status === 'completed' || v2Status === 'failed' || v2Status === 'cancelled';
    const cancellable = final ? false : t.capabilities !== undefined ? !!t.capabilities?.cancel : undefined;
    if (cancellable !== undefined || v2Status === 'cancelled') {
      events.push({ type: 'toolCall', sessionId, toolCallId: t.toolCallId, ...(cancellable !== undefined ? { cancellable } : {}), ...(v2Status === 'cancelled' ? { cancelled: true } : {}) });
    }
  }
}

function backgroundItem(w: unknown): BackgroundItem {
  const o = (typeof w === 'object' && w !== null ? w : {}) as Record<string, unknown>;
  const id = [o.terminalId, o.toolCallId, o.sessionId].find((v) => typeof v === 'string');
  return { type: typeof o.type === 'string' ? o.type : 'unknown', id: typeof id === 'string' ? id : '' };
}
