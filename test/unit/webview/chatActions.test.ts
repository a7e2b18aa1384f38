import * as assert from 'node:assert/strict';
import { chatActions } from '../../../webview/actions';
import type { ActionTransport } from '../../../webview/actions';
import {
  CancelTurnCommand, CopyCodeCommand, InsertCodeCommand, OpenDiffCommand, OpenLinkCommand, OpenLocationCommand, AcknowledgeSnapshotCommand, RequestStateCommand,
  RemoveQueuedPromptCommand, RequestEntriesCommand, RequestSnapshotCommand, ResendPromptCommand, RespondPermissionCommand,
  RestartAgentCommand, RetryPromptCommand, SaveDraftCommand, SearchFilesCommand, SendPromptCommand, SetConfigOptionCommand,
  SetModeCommand, ToggleFollowCommand, UpdateQueuedPromptCommand,
} from '../../../src/shared/chatProtocol';
import { DiffCheckpointCommand, UndoCheckpointCommand, RestoreCheckpointCommand } from '../../../src/shared/chatProtocol';
import type { DraftView } from '../../../src/shared/composerModel';

/** A transport that records what is posted, with the webview's saved state in memory. */
function fakeIpc() {
  const posted: Array<{ method: string; params: unknown }> = [];
  let state: unknown;
  const ipc: ActionTransport = {
    post: (type, params) => { posted.push({ method: type.method, params }); },
    getState: <T>() => state as T | undefined,
    setState: (s) => { state = s; },
  };
  return { ipc, posted, state: () => state };
}

describe('ChatActions: what the chat asks of its host, as commands of the chat protocol', () => {
  it('posts each action as its command with its parameters', () => {
    const { ipc, posted } = fakeIpc();
    const a = chatActions(ipc);
    const image = { kind: 'image', id: 'i1', name: 'x.png', mimeType: 'image/png', data: 'AA==' } as const;
    const draft: DraftView = { text: 'hi', attachments: [], rev: 3 };
    a.ready();
    a.shown();
    a.requestSnapshot('gap');
    a.requestEntries(40, 20);
    a.respondPermission('r1', 'allow');
    a.openDiff('tc1', 2);
    a.openLocation('tc1', 0);
    a.retry();
    a.restart();
    a.resend();
    a.openLink('https://example.com/');
    a.copyCode('x = 1', 'py');
    a.insertCode('y', '');
    a.toggleFollow();
    a.sendPrompt('hello', [image]);
    a.cancelTurn();
    a.updateQueuedPrompt('q1', 'edited');
    a.removeQueuedPrompt('q1');
    a.setConfigOption('model', 'fast');
    a.setConfigOption('web', true);
    a.setMode('plan');
    a.searchFiles(7, 'main');
    a.saveDraft(draft);
    assert.deepEqual(posted, [
      { method: RequestStateCommand.method, params: {} },
      { method: AcknowledgeSnapshotCommand.method, params: {} },
      { method: RequestSnapshotCommand.method, params: { reason: 'gap' } },
      { method: RequestEntriesCommand.method, params: { before: 40, count: 20 } },
      { method: RespondPermissionCommand.method, params: { requestId: 'r1', optionId: 'allow' } },
      { method: OpenDiffCommand.method, params: { toolCallId: 'tc1', index: 2 } },
      { method: OpenLocationCommand.method, params: { toolCallId: 'tc1', index: 0 } },
      { method: RetryPromptCommand.method, params: {} },
      { method: RestartAgentCommand.method, params: {} },
      { method: ResendPromptCommand.method, params: {} },
      { method: OpenLinkCommand.method, params: { href: 'https://example.com/' } },
      { method: CopyCodeCommand.method, params: { code: 'x = 1', language: 'py' } },
      { method: InsertCodeCommand.method, params: { code: 'y', language: '' } },
      { method: ToggleFollowCommand.method, params: {} },
      { method: SendPromptCommand.method, params: { text: 'hello', attachments: [image] } },
      { method: CancelTurnCommand.method, params: {} },
      { method: UpdateQueuedPromptCommand.method, params: { id: 'q1', text: 'edited' } },
      { method: RemoveQueuedPromptCommand.method, params: { id: 'q1' } },
      { method: SetConfigOptionCommand.method, params: { configId: 'model', value: 'fast' } },
      { method: SetConfigOptionCommand.method, params: { configId: 'web', value: true } },
      { method: SetModeCommand.method, params: { modeId: 'plan' } },
      { method: SearchFilesCommand.method, params: { requestId: 7, query: 'main' } },
      { method: SaveDraftCommand.method, params: { draft } },
    ]);
  });

  it('posts the checkpoint actions by entry id (a diff by entry and path)', () => {
    const { ipc, posted } = fakeIpc();
    const a = chatActions(ipc);
    a.restoreCheckpoint('e1');
    a.changesDiff('e5', '/w/a.ts');
    a.changesUndo('e5');
    assert.deepEqual(posted, [
      { method: RestoreCheckpointCommand.method, params: { entryId: 'e1' } },
      { method: DiffCheckpointCommand.method, params: { entryId: 'e5', path: '/w/a.ts' } },
      { method: UndoCheckpointCommand.method, params: { entryId: 'e5' } },
    ]);
  });

  it("keeps the draft in the webview's saved state next to what else is there", () => {
    const { ipc, posted, state } = fakeIpc();
    ipc.setState({ other: 1 });
    const a = chatActions(ipc);
    assert.equal(a.localDraft(), undefined);
    const draft: DraftView = { text: 'draft', attachments: [], rev: 1 };
    a.keepDraftLocally(draft);
    assert.deepEqual(state(), { other: 1, composerDraft: draft });
    assert.deepEqual(a.localDraft(), draft);
    assert.deepEqual(posted, [], 'the saved state is not a message to the host');
  });

  it("keeps the panel's session in the webview's saved state, where the serializer finds it after a reload", () => {
    const { ipc, state } = fakeIpc();
    const a = chatActions(ipc);
    const draft: DraftView = { text: 'draft', attachments: [], rev: 1 };
    a.keepDraftLocally(draft);
    a.rememberSession({ sessionId: 's1', agentId: 'demo', cwd: '/w' });
    assert.deepEqual(state(), { composerDraft: draft, restore: { sessionId: 's1', agentId: 'demo', cwd: '/w' } });
    a.keepDraftLocally({ ...draft, rev: 2 });
    assert.deepEqual((state() as { restore?: unknown }).restore, { sessionId: 's1', agentId: 'demo', cwd: '/w' }, 'a later draft keeps it');
  });
});
