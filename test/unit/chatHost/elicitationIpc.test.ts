import * as assert from 'node:assert/strict';
import { RespondElicitationUrlCommand, RespondElicitationCommand } from '../../../src/shared/chatProtocol';
import type { RespondElicitationUrlParams, RespondElicitationParams } from '../../../src/shared/chatProtocol';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { chatActions } from '../../../webview/actions';

describe('the elicitation commands (RespondElicitationCommand, RespondElicitationUrlCommand)', () => {
  it('reach the host from the actions; malformed ones are dropped and logged', () => {
    const warnings: string[] = [];
    const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
    const answers: RespondElicitationParams[] = [];
    const urls: RespondElicitationUrlParams[] = [];
    ipc.on(RespondElicitationCommand, (p) => { answers.push(p); });
    ipc.on(RespondElicitationUrlCommand, (p) => { urls.push(p); });
    const actions = chatActions({ post: (type, params) => ipc.dispatch({ method: type.method, params }), getState: () => undefined, setState: () => undefined });
    actions.respondElicitation('elicit-1', 'accept', { name: 'Ada', seats: '3', ok: true, langs: ['ts'] });
    actions.respondElicitation('elicit-1', 'decline');
    actions.elicitationUrl('elicit-2', 'retry');
    for (const params of [
      { requestId: 'elicit-1', action: 'approve' },
      { requestId: 'elicit-1', action: 'accept', content: { nested: { a: 1 } } },
      { requestId: 'elicit-1', action: 'accept', content: { big: 'x'.repeat(200_000) } },
      { requestId: 7, action: 'cancel' },
      { requestId: 'elicit-1', action: 'cancel', extra: true },
    ]) ipc.dispatch({ method: RespondElicitationCommand.method, params });
    ipc.dispatch({ method: RespondElicitationUrlCommand.method, params: { requestId: 'elicit-2', op: 'open' } });
    assert.deepEqual(answers, [
      { requestId: 'elicit-1', action: 'accept', content: { name: 'Ada', seats: '3', ok: true, langs: ['ts'] } },
      { requestId: 'elicit-1', action: 'decline' },
    ]);
    assert.deepEqual(urls, [{ requestId: 'elicit-2', op: 'retry' }]);
    assert.equal(warnings.length, 6);
  });
});
