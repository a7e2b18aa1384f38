/**
 * Tool-call entries: created from `tool_call`, patched by `tool_call_update` (absent fields unchanged,
 * `content` and `locations` replaced whole, https://agentclientprotocol.com/protocol/tool-calls), with
 * client-side states the wire lacks (waiting for confirmation, cancelled), like Zed's `ToolCallStatus`.
 *
 * One exception to "replaced whole": an edit's diff stays. Agents (the Demo agent among them) finish an
 * edit with an update whose `content` is only a text ("Wrote /path"); the card would then lose the diff the
 * user saw, and maybe approved. When new content has no diff, the diffs the card had are kept ahead of it.
 */
import type { ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from '../../acp/schema/types.gen';
import type { ElicitationView } from '../../shared/elicitationModel';

/** A tool call's status, with the client-side states the wire does not have (waiting for the user's permission, cancelled). */
export type ToolCallState = ToolCallStatus | 'cancelled' | 'waitingForConfirmation';

/** The fields a `tool_call` or `tool_call_update` may carry. */
export interface ToolCallPatch {
  toolCallId: string;
  title?: string | null;
  /** The agent's programmatic name of the tool (e.g. `Bash`, `edit_file`). */
  name?: string | null;
  kind?: ToolKind | null;
  status?: ToolCallStatus | null;
  content?: ToolCallContent[] | null;
  locations?: ToolCallLocation[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
}

/** A pending permission request parked on a tool call. */
export interface ParkedPermission {
  readonly requestId: string;
  readonly options: { optionId: string; name: string; kind: string }[];
  /** The status to go back to once answered. */
  readonly previousStatus: ToolCallState;
  /** True for a question of the client's own (docs/approvals.md), never for an agent's request. */
  readonly fromClient?: boolean;
}

/** A tool call in the transcript. */
export interface ToolCallEntry {
  readonly kind: 'toolCall';
  readonly id: string;
  readonly toolCallId: string;
  title: string;
  /** The agent's programmatic name of the tool, when it sent one (the card shows it as a subtle label). */
  toolName?: string;
  toolKind: ToolKind;
  status: ToolCallState;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  permission?: ParkedPermission;
  permissionOutcome?: string;
  /** Elicitations scoped to this tool call (src/thread/model/elicitations.ts). */
  elicitations?: ElicitationView[];
  /** An ACP v2 agent lets the user stop this call on its own (`tool_call/cancel`: docs/acp-v2.md). */
  cancellable?: boolean;
}

/** True while the call may still run: pending, running, or waiting for the user's permission. */
export function isUnfinished(e: ToolCallEntry): boolean {
  return e.status === 'pending' || e.status === 'in_progress' || e.status === 'waitingForConfirmation';
}

/** A new entry from the first message about a tool call. */
export function newToolCall(id: string, p: ToolCallPatch): ToolCallEntry {
  return {
    kind: 'toolCall',
    id,
    toolCallId: p.toolCallId,
    title: p.title ?? 'Tool call',
    ...(p.name ? { toolName: p.name } : {}),
    toolKind: p.kind ?? 'other',
    status: p.status ?? 'pending',
    content: p.content ?? [],
    locations: p.locations ?? [],
    rawInput: p.rawInput,
    rawOutput: p.rawOutput,
  };
}

/** Applies an update in place: only the fields present change. */
export function applyToolCallUpdate(entry: ToolCallEntry, p: ToolCallPatch): void {
  if (p.title != null) entry.title = p.title;
  if (p.name) entry.toolName = p.name;
  if (p.kind != null) entry.toolKind = p.kind;
  if (p.status != null && entry.status !== 'cancelled') {
    if (entry.status === 'waitingForConfirmation' && entry.permission) {
      // keep showing the dialog; remember the wire status for afterwards
      entry.permission = { ...entry.permission, previousStatus: p.status };
    } else {
      entry.status = p.status;
    }
  }
  if (p.content != null) entry.content = withKeptDiffs(entry.content, p.content);
  if (p.locations != null) entry.locations = p.locations;
  if (p.rawInput !== undefined) entry.rawInput = p.rawInput;
  if (p.rawOutput !== undefined) entry.rawOutput = p.rawOutput;
}

/** `next`, with the diffs of `previous` ahead of it when `next` has none (see the file comment). */
export function withKeptDiffs(previous: readonly ToolCallContent[], next: ToolCallContent[]): ToolCallContent[] {
  if (next.some((c) => c.type === 'diff')) return next;
  const diffs = previous.filter((c) => c.type === 'diff');
  return diffs.length ? [...diffs, ...next] : next;
}
