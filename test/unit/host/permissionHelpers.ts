/** A session context for the permission broker in plain Node: a real thread, a silent log, a switchable chat. */
import type * as vscode from 'vscode';
import type { PermissionOption, RequestPermissionRequest } from '../../../src/acp/schema/types.gen';
import type { ApprovalLevel } from '../../../src/shared/approvalLevel';
import type { PermissionEnvironment, PermissionPrompt } from '../../../src/host/permissions/permissionBroker';
import { noRules } from '../../../src/host/permissions/rules/sessionRules';
import type { SessionContext } from '../../../src/host/sessionContext';
import { AcpThread } from '../../../src/thread/model/thread';

/** The agent's usual three options. */
export const options: PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** A fake session; `chatVisible` and `logged` are live. */
export function fakeSession(sessionId = 's1', cwd = '/work/project'): { ctx: SessionContext; thread: AcpThread; chat: { visible: boolean }; logged: string[] } {
  const thread = new AcpThread(sessionId);
  thread.setStatus('working');
  const logged: string[] = [];
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m), error: (m: string) => logged.push(m) } as unknown as vscode.LogOutputChannel;
  const chat = { visible: true };
  const ctx: SessionContext = { sessionId, cwd, additionalDirectories: [], agentName: 'Test agent', thread, log, isChatVisible: () => chat.visible };
  return { ctx, thread, chat, logged };
}

/** A recording environment (`level` is the settings' approval level): `answer(optionId)` resolves the last notification like a click. */
export function fakeEnvironment(level: ApprovalLevel = 'rules'): PermissionEnvironment & {
  prompts: PermissionPrompt[];
  answer(optionId: string | undefined): void;
} {
  const pending: ((id: string | undefined) => void)[] = [];
  return {
    ...noRules,
    prompts: [],
    defaultLevel: () => level,
    uncoveredPolicy: () => 'ask',
    notify(prompt) {
      this.prompts.push(prompt);
      return new Promise<string | undefined>((resolve) => pending.push(resolve));
    },
    answer: (optionId) => pending.shift()?.(optionId),
  };
}

/** A `session/request_permission` for a tool call. */
export function permissionRequest(toolCallId: string, fields: Partial<RequestPermissionRequest['toolCall']> = {}, opts = options): RequestPermissionRequest {
  return { sessionId: 's1', toolCall: { toolCallId, title: `Tool ${toolCallId}`, ...fields }, options: opts };
}

/** Lets promise callbacks run. */
export const tick = () => new Promise<void>((r) => setImmediate(r));
