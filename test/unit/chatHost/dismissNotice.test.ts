import * as assert from 'node:assert/strict';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { DismissNoticeCommand } from '../../../src/shared/chatProtocol';
import { AcpThread } from '../../../src/thread/model/thread';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { chatActions } from '../../../webview/actions';

describe('closing an agent notice (notice/dismiss)', () => {
  it('the webview posts the notice id; the host validates it and the thread forgets that notice', () => {
    const posted: { method: string; params: unknown }[] = [];
    const actions = chatActions({ post: (type, params) => posted.push({ method: type.method, params }), getState: () => undefined, setState: () => undefined });
    const thread = new AcpThread('s1');
    thread.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'notice', severity: 'info', title: 'one' }));
    thread.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'notice', severity: 'info', title: 'two' }));
    const warnings: string[] = [];
    const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
    // as src/chatHost/cardActions.ts wires it
    ipc.on(DismissNoticeCommand, ({ noticeId }) => { thread.notices.dismiss(noticeId); });
    actions.dismissNotice(thread.notices.items[1]?.id ?? '');
    for (const m of posted) ipc.dispatch(m);
    assert.deepEqual(thread.notices.items.map((n) => n.title), ['two']);
    for (const params of [{}, { noticeId: 7 }, { noticeId: 'n2', extra: true }, { noticeId: 'x'.repeat(300) }]) ipc.dispatch({ method: DismissNoticeCommand.method, params });
    assert.equal(warnings.length, 4, 'malformed params are dropped and logged');
    assert.deepEqual(thread.notices.items.map((n) => n.title), ['two']);
  });
});
