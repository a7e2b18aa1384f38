/**
 * The ACP v2 draft as a wire dialect (src/acp/wireDialect.ts): what the client speaks with an agent that chose v2 in
 * `initialize`, behind the setting `switchboard.experimental.protocolV2` (docs/acp-v2.md). Our v1 calls become
 * their v2 messages (`session/load` is a resume that replays from the start, `authenticate` is `auth/login`, a
 * prompt's answer waits for its turn's end); the agent's v2 messages are validated against the v2 schema
 * (schema/v2/zod.gen.ts: `-32602` with the message when they fail) and become the v1 messages they mean
 * (v2Updates.ts), plus events for what v1 has not: agent terminals, the foreground state, the background work,
 * which tool calls can be stopped.
 */
import * as z from 'zod/mini';
import { AcpError, AcpErrorCodes } from '../errors';
import { looseObject } from '../schema/runtime';
import { agentRequests as v2Requests } from '../schema/v2/methods.gen';
import type * as v2 from '../schema/v2/types.gen';
import * as s2 from '../schema/v2/zod.gen';
import type { DialectError, DialectIncomingRequest, DialectMessage, DialectRequest, VersionOffer, WireDialect } from '../wireDialect';
import { formatIssues } from '../wireHelpers';
import { commandsV1, configOptionsV1, initializeParamsV2, initializeResponseV1, mcpServersV2, setConfigOptionV2 } from './v2Shapes';
import { V2Turns } from './v2Turns';
import { V2Updates, type V2Event } from './v2Updates';

type Json = Record<string, unknown>;

/** Each v2 update's schema, by its tag (one lookup, rather than trying the union's every variant). */
const updateSchemas: Record<string, z.ZodMiniType | undefined> = {
  user_message_chunk: s2.zContentChunk, agent_message_chunk: s2.zContentChunk, agent_thought_chunk: s2.zContentChunk,
  user_message: s2.zUserMessage, agent_message: s2.zAgentMessage, agent_thought: s2.zAgentThought,
  state_update: s2.zStateUpdate, tool_call_content_chunk: s2.zToolCallContentChunk, tool_call_update: s2.zToolCallUpdate,
  terminal_update: s2.zTerminalUpdate, terminal_output_chunk: s2.zTerminalOutputChunk,
  plan_update: s2.zPlanUpdate, plan_removed: s2.zPlanRemoved, available_commands_update: s2.zAvailableCommandsUpdate,
  config_option_update: s2.zConfigOptionUpdate, session_info_update: s2.zSessionInfoUpdate, usage_update: s2.zUsageUpdate,
  notice: s2.zNotice, compaction_update: s2.zCompactionUpdate, compaction_summary_chunk: s2.zCompactionSummaryChunk,
  subagent_update: s2.zSubagentUpdate, session_message: s2.zSessionMessage, session_message_chunk: s2.zSessionMessageChunk,
};
const zEnvelope = looseObject({ sessionId: z.string(), update: looseObject({ sessionUpdate: z.string() }) });

/** What the dialect reports to its owner (the agent's host). */
export interface V2DialectOptions {
  readonly onEvent: (event: V2Event) => void;
  readonly log: (message: string) => void;
}

/** `initialize`'s offer of v2 (src/acp/connection.ts `initialize`). */
export function offerV2(options: V2DialectOptions): VersionOffer {
  return {
    protocolVersion: 2,
    params: initializeParamsV2,
    accept: (answer) => {
      const parsed = s2.zInitializeResponse.safeParse(answer);
      if (!parsed.success) throw new AcpError('protocol', `The agent's answer to 'initialize' (ACP v2) is invalid: ${formatIssues(parsed.error)}`, AcpErrorCodes.InvalidParams);
      return { dialect: new V2Dialect(options, parsed.data.capabilities?.session?.mcp), response: initializeResponseV1(parsed.data) };
    },
  };
}

export class V2Dialect implements WireDialect {
  readonly protocolVersion = 2;
  private readonly _updates = new V2Updates();
  private readonly _turns = new V2Turns();
  /** Ids of the tool calls made for permission requests that name none. */
  private _madeCalls = 0;
  /** Events of the last incoming message, reported after its v1 messages were dispatched. */
  private readonly _pending: (() => void)[] = [];

  constructor(private readonly options: V2DialectOptions, private readonly mcp?: v2.McpCapabilities | null) {}

  /** Our MCP servers as v2's, those of a transport the agent takes. */
  private servers(servers: unknown): Json[] {
    return mcpServersV2(servers, this.mcp, (name, type) => this.options.log(`MCP server "${name}" not offered: the agent (ACP v2) does not take ${type} servers`));
  }

  request(method: string, params: unknown): DialectRequest {
    const p = (params ?? {}) as Json;
    switch (method) {
      case 'session/new':
        return this.wire('session/new', { ...p, mcpServers: this.servers(p.mcpServers) }, sessionSetup);
      case 'session/fork':
        return this.wire('session/fork', { ...p, mcpServers: this.servers(p.mcpServers) }, sessionSetup);
      case 'session/load':
        // v2 has no session/load: a resume that replays the session from its start
        return this.wire('session/resume', { ...resumeFields(p, this.servers(p.mcpServers)), replayFrom: { type: 'start' } }, sessionSetup);
      case 'session/resume':
        return this.wire('session/resume', resumeFields(p, this.servers(p.mcpServers)), sessionSetup);
      case 'session/set_config_option':
        return this.wire(method, setConfigOptionV2(p), (r) => ({ ...r, configOptions: configOptionsV1(r.configOptions as v2.SessionConfigOption[]) }));
      case 'authenticate':
        return this.wire('auth/login', { methodId: p.methodId, ...(p._meta ? { _meta: p._meta } : {}) }, (r) => r);
      case 'logout':
        return this.wire('auth/logout', p._meta ? { _meta: p._meta } : {}, (r) => r);
      case 'session/close':
        this._updates.forget(String(p.sessionId));
        return this.wire(method, p, (r) => r);
      case 'session/prompt':
        return this.prompt(p);
      default:
        // an agent's extension (`_session/steering`) is the same on either version; its caller checks the answer
        if (method.startsWith('_')) return { method, params: p, result: z.unknown(), finish: (r) => r };
        if (method in v2Requests) return this.wire(method, p, (r) => r);
        throw new AcpError('remote', `'${method}' has no counterpart in ACP v2.`, AcpErrorCodes.MethodNotFound);
    }
  }

  notification(method: string, params: unknown): DialectMessage | undefined {
    // session/cancel and $/cancel_request are the same in v2
    return method === 'session/cancel' || method.startsWith('$/') || method.startsWith('_') ? { method, params } : undefined;
  }

  incomingRequest(method: string, params: unknown): DialectIncomingRequest | DialectError {
    if (method === 'session/request_permission') {
      const parsed = s2.zRequestPermissionRequest.safeParse(params);
      if (!parsed.success) return invalid(method, parsed.error);
      return { ...this.permission(parsed.data), method };
    }
    if (method === 'elicitation/create') {
      const parsed = s2.zCreateElicitationRequest.safeParse(params);
      if (!parsed.success) return invalid(method, parsed.error);
      return { method, params };
    }
    this.options.log(`answered -32601 to the agent's unknown request '${method}' (ACP v2)`);
    return { error: { code: AcpErrorCodes.MethodNotFound, message: `Method not found: ${method}` } };
  }

  incomingNotification(method: string, params: unknown): readonly DialectMessage[] {
    if (method !== 'session/update') return [{ method, params }];
    const envelope = zEnvelope.safeParse(params);
    if (!envelope.success) {
      this.options.log(`ignored an invalid 'session/update' notification (ACP v2): ${formatIssues(envelope.error)}`);
      return [];
    }
    const { sessionId, update } = envelope.data;
    const schema = updateSchemas[update.sessionUpdate];
    if (!schema) {
      this.options.log(`ignored session/update of unknown kind ${JSON.stringify(update.sessionUpdate)} (ACP v2)`);
      return [];
    }
    const parsed = schema.safeParse(update);
    if (!parsed.success) {
      this.options.log(`ignored an invalid '${update.sessionUpdate}' update (ACP v2): ${formatIssues(parsed.error)}`);
      return [];
    }
    const { updates, events } = this._updates.translate(sessionId, { ...(parsed.data as object), sessionUpdate: update.sessionUpdate } as v2.SessionUpdate);
    // reported once the thread has the updates (a first tool_call_update creates the call the event changes)
    for (const event of events) this._pending.push(() => this.event(event, update));
    return updates.map((u) => ({ method: 'session/update', params: { sessionId, update: u } }));
  }

  dispatched(): void {
    const pending = this._pending.splice(0);
    for (const run of pending) run();
  }

  close(reason: Error): void {
    this._turns.close(reason);
  }

  private event(event: V2Event, update: Json): void {
    if (event.type === 'log') return this.options.log(event.message);
    if (event.type === 'state') this._turns.onState(event.sessionId, event.state, event.stopReason, event.error, update.usage);
    this.options.onEvent(event);
  }

  private wire(method: string, params: Json, finish: (r: Json) => unknown): DialectRequest {
    const spec = (v2Requests as Record<string, { result: z.ZodMiniType } | undefined>)[method];
    if (!spec) throw new AcpError('remote', `'${method}' has no counterpart in ACP v2.`, AcpErrorCodes.MethodNotFound);
    return { method, params, result: spec.result, finish: (r) => finish((r ?? {}) as Json) };
  }

  /** A prompt: its answer is the turn's end (v2Turns.ts); its echo as a user message is not shown again. */
  private prompt(p: Json): DialectRequest {
    const sessionId = String(p.sessionId);
    this._updates.promptSent(sessionId);
    const turn = this._turns.start(sessionId);
    return {
      method: 'session/prompt', params: p, result: s2.zPromptResponse,
      finish: (r) => {
        this._updates.promptInserted(sessionId, (r as v2.PromptResponse).messageId);
        return turn.acked();
      },
      failed: () => {
        this._updates.promptFailed(sessionId);
        turn.failed();
      },
    };
  }

  /**
   * A v2 permission request as v1's: its subject is the tool call (applied first, as the v2 schema asks: `before`, v2
   * updates) or a command (a tool call made for it when it names none); with neither, a tool call named by its title.
   */
  private permission(r: v2.RequestPermissionRequest): { params: Json; before: DialectMessage[] } {
    const subject = r.subject as (Json & { type: string }) | null | undefined;
    const before: DialectMessage[] = [];
    const upsert = (toolCall: Json) => before.push({ method: 'session/update', params: { sessionId: r.sessionId, update: { sessionUpdate: 'tool_call_update', ...toolCall } } });
    let toolCallId: string;
    if (subject?.type === 'tool_call' && typeof (subject.toolCall as Json | undefined)?.toolCallId === 'string') {
      const toolCall = subject.toolCall as Json;
      toolCallId = toolCall.toolCallId as string;
      // a call the agent never announced is named by the request's title
      upsert(toolCall.title === undefined && !this._updates.knows(r.sessionId, toolCallId) ? { ...toolCall, title: r.title } : toolCall);
    } else if (subject?.type === 'command' && typeof subject.command === 'string') {
      toolCallId = typeof subject.toolCallId === 'string' ? subject.toolCallId : `permission:${++this._madeCalls}`;
      upsert({ toolCallId, title: r.title, kind: 'execute', rawInput: { command: subject.command, cwd: subject.cwd } });
    } else {
      toolCallId = `permission:${++this._madeCalls}`;
      upsert({ toolCallId, title: r.title });
    }
    const options = r.options.map((o) => ({ ...o, kind: ['allow_once', 'allow_always', 'reject_once', 'reject_always'].includes(o.kind) ? o.kind : 'reject_once' }));
    return { params: { sessionId: r.sessionId, toolCall: { toolCallId }, options, ...(r._meta ? { _meta: r._meta } : {}) }, before };
  }
}

/** The fields of a v2 `session/resume` from v1's `session/load` or `session/resume`. */
function resumeFields(p: Json, mcpServers: Json[]): Json {
  const { sessionId, cwd, additionalDirectories, systemPrompt, _meta } = p;
  return { sessionId, cwd, mcpServers, ...(additionalDirectories ? { additionalDirectories } : {}), ...(systemPrompt ? { systemPrompt } : {}), ...(_meta ? { _meta } : {}) };
}

/** A v2 session answer's config options and commands as v1's (the host applies both: thread.setSessionSetup). */
function sessionSetup(r: Json): Json {
  return { ...r, configOptions: configOptionsV1(r.configOptions as v2.SessionConfigOption[]), availableCommands: commandsV1(r.availableCommands as v2.AvailableCommand[]) };
}

function invalid(method: string, error: { readonly issues: readonly z.core.$ZodIssue[] }): DialectError {
  return { error: { code: AcpErrorCodes.InvalidParams, message: `Invalid params for '${method}' (ACP v2): ${formatIssues(error)}`, data: { issues: error.issues } } };
}
