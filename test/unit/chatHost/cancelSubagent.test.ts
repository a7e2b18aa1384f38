import * as assert from 'node:assert/strict';
import { CancelSubagentCommand, OpenDiffCommand } from '../../../src/shared/chatProtocol';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { chatActions } from '../../../webview/actions';

describe('a subagent card\'s actions (subagent/cancel, a nested tool call\'s diff)', () => {
  it('the webview posts the subagent\'s session id; the host takes only well-formed params', () => {
    const posted: { method: string; params: unknown }[] = [];
    const actions = chatActions({ post: (type, params) => posted.push({ method: type.method, params }), getState: () => undefined, setState: () => undefined });
    const warnings: string[] = [];
    const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
    const cancelled: string[] = [];
    const diffs: unknown[] = [];
    // as src/chatHost/chatBinding.ts and cardActions.ts wire them
    ipc.on(CancelSubagentCommand, ({ sessionId }) => { cancelled.push(sessionId); });
    ipc.on(OpenDiffCommand, (params) => { diffs.push(params); });
    actions.cancelSubagent('sess-1-explore');
    actions.openDiff('t1', 0, 'sess-1-explore');
    actions.openDiff('t1', 1);
    for (const m of posted) ipc.dispatch(m);
    assert.deepEqual(cancelled, ['sess-1-explore']);
    assert.deepEqual(diffs, [{ toolCallId: 't1', index: 0, sessionId: 'sess-1-explore' }, { toolCallId: 't1', index: 1 }], 'a nested card\'s diff names its subagent');
    for (const params of [{}, { sessionId: 7 }, { sessionId: '' }, { sessionId: 'c', extra: true }, { sessionId: 'x'.repeat(2000) }]) ipc.dispatch({ method: CancelSubagentCommand.method, params });
    ipc.dispatch({ method: OpenDiffCommand.method, params: { toolCallId: 't1', index: 0, sessionId: 5 } });
    assert.equal(warnings.length, 6, 'malformed params are dropped and logged');
    assert.deepEqual(cancelled, ['sess-1-explore']);
  });
});
