import * as assert from 'node:assert/strict';
import { DiffCheckpointCommand, UndoCheckpointCommand, CopyMessageCommand, EditResendMessageCommand, RestoreCheckpointCommand, RetryMessageCommand } from '../../../src/shared/chatProtocol';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { parseParams } from '../../../src/chatHost/ipcSchemas';

describe('message action commands from the webview (untrusted input)', () => {
  it('accepts an entry id, and an edited text that is not blank', () => {
    assert.deepEqual(parseParams(CopyMessageCommand.method, { entryId: 'e12' }), { ok: true, params: { entryId: 'e12' } });
    assert.deepEqual(parseParams(RetryMessageCommand.method, { entryId: 'e3' }), { ok: true, params: { entryId: 'e3' } });
    assert.deepEqual(parseParams(EditResendMessageCommand.method, { entryId: 'e4', text: 'again' }), { ok: true, params: { entryId: 'e4', text: 'again' } });
  });

  it('rejects what is not one: no id, a huge id, extra fields, a blank edit, a text instead of an id', () => {
    for (const [method, params] of [
      [CopyMessageCommand.method, {}],
      [CopyMessageCommand.method, { entryId: 'x'.repeat(300) }],
      [RetryMessageCommand.method, { entryId: 'e1', text: 'the markdown' }],
      [EditResendMessageCommand.method, { entryId: 'e1', text: '  \n ' }],
      [EditResendMessageCommand.method, { entryId: 'e1' }],
      [RetryMessageCommand.method, { entryId: 7 }],
    ] as const) assert.equal(parseParams(method, params).ok, false, `${method} ${JSON.stringify(params)}`);
  });

  it('never calls the handler with bad params (the dispatcher drops and logs them)', () => {
    const warnings: string[] = [];
    const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
    const calls: string[] = [];
    ipc.on(EditResendMessageCommand, ({ text }) => { calls.push(text); });
    ipc.dispatch({ method: EditResendMessageCommand.method, params: { entryId: 'e1', text: '' } });
    ipc.dispatch({ method: EditResendMessageCommand.method, params: { entryId: 'e1', text: 'ok' } });
    assert.deepEqual(calls, ['ok']);
    assert.equal(warnings.length, 1);
  });

  it('checkpoint commands: an entry id (and for Open Diff a path the host checks against the entry), nothing else', () => {
    assert.deepEqual(parseParams(RestoreCheckpointCommand.method, { entryId: 'e4' }), { ok: true, params: { entryId: 'e4' } });
    assert.deepEqual(parseParams(DiffCheckpointCommand.method, { entryId: 'e9', path: '/w/a.ts' }), { ok: true, params: { entryId: 'e9', path: '/w/a.ts' } });
    assert.deepEqual(parseParams(UndoCheckpointCommand.method, { entryId: 'e9' }), { ok: true, params: { entryId: 'e9' } });
    for (const [method, params] of [
      [RestoreCheckpointCommand.method, {}],
      [RestoreCheckpointCommand.method, { entryId: 'e1', checkpointId: 'c1' }],
      [DiffCheckpointCommand.method, { entryId: 'e1' }],
      [DiffCheckpointCommand.method, { entryId: 'e1', path: '' }],
      [DiffCheckpointCommand.method, { entryId: 'e1', path: 'x'.repeat(5000) }],
      [UndoCheckpointCommand.method, { entryId: 'e1', paths: ['/etc/passwd'] }],
    ] as const) assert.equal(parseParams(method, params).ok, false, `${method} ${JSON.stringify(params)}`);
  });
});
