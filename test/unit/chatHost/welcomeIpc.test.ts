import * as assert from 'node:assert/strict';
import { OpenRecentSessionCommand } from '../../../src/shared/chatProtocol';
import type { OpenRecentSessionParams } from '../../../src/shared/chatProtocol';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { chatActions } from '../../../webview/actions';

describe('the welcome\'s command (OpenRecentSessionCommand)', () => {
  it('reaches the host with a session id; anything else is dropped and logged', () => {
    const warnings: string[] = [];
    const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
    const got: OpenRecentSessionParams[] = [];
    ipc.on(OpenRecentSessionCommand, (p) => { got.push(p); });
    const actions = chatActions({ post: (type, params) => ipc.dispatch({ method: type.method, params }), getState: () => undefined, setState: () => undefined });
    actions.openRecentSession('s-1');
    for (const params of [{}, { sessionId: '' }, { sessionId: 7 }, { sessionId: 'x'.repeat(2000) }, { sessionId: 's', extra: true }]) {
      ipc.dispatch({ method: OpenRecentSessionCommand.method, params });
    }
    assert.deepEqual(got, [{ sessionId: 's-1' }]);
    assert.equal(warnings.length, 5);
  });
});
