import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { CancelTurnCommand, OpenDiffCommand, OpenLinkCommand, OpenToolOutputCommand, RequestStateCommand, RequestEntriesCommand, SendPromptCommand } from '../../../src/shared/chatProtocol';
import type { OpenDiffParams, OpenToolOutputParams, RequestEntriesParams, SendPromptParams } from '../../../src/shared/chatProtocol';
import { IpcDispatcher } from '../../../src/chatHost/ipc';
import { ipcSchemas } from '../../../src/chatHost/ipcSchemas';
import type { IpcSchemaTable } from '../../../src/chatHost/ipcSchemas';

function dispatcher() {
  const warnings: string[] = [];
  const ipc = new IpcDispatcher({ warn: (m) => warnings.push(m) });
  return { ipc, warnings };
}

describe('IpcDispatcher (src/chatHost/ipc)', () => {
  it('calls the handler of a command with its validated, typed params', () => {
    const { ipc, warnings } = dispatcher();
    const got: RequestEntriesParams[] = [];
    ipc.on(RequestEntriesCommand, (params) => { got.push(params); });
    const prompts: SendPromptParams[] = [];
    ipc.on(SendPromptCommand, (params) => { prompts.push(params); });
    ipc.dispatch({ method: RequestEntriesCommand.method, params: { before: 40, count: 20 } });
    ipc.dispatch({ method: SendPromptCommand.method, params: { text: 'hi', attachments: [] } });
    assert.deepEqual(got, [{ before: 40, count: 20 }]);
    assert.deepEqual(prompts, [{ text: 'hi', attachments: [] }]);
    assert.deepEqual(warnings, []);
  });

  it('treats undefined or null params as {}, but wants the params key', () => {
    const { ipc, warnings } = dispatcher();
    let cancelled = 0;
    let ready = 0;
    ipc.on(CancelTurnCommand, () => { cancelled++; });
    ipc.on(RequestStateCommand, () => { ready++; });
    ipc.dispatch({ method: CancelTurnCommand.method, params: undefined });
    ipc.dispatch({ method: CancelTurnCommand.method, params: null });
    ipc.dispatch({ method: RequestStateCommand.method, params: { lastSeq: 3 } });
    ipc.dispatch({ method: RequestStateCommand.method });
    assert.equal(cancelled, 2);
    assert.equal(ready, 1);
    assert.deepEqual(warnings, ['chat webview sent an invalid message, ignored: not an IPC message']);
  });

  it('drops and logs params its schema rejects, and never calls the handler', () => {
    const { ipc, warnings } = dispatcher();
    const got: (OpenDiffParams | SendPromptParams)[] = [];
    ipc.on(OpenDiffCommand, (params) => { got.push(params); });
    ipc.on(SendPromptCommand, (params) => { got.push(params); });
    for (const params of [{ toolCallId: 'c', index: -1 }, { toolCallId: 'c', index: 'x' }, { toolCallId: 'c', index: 0, extra: 1 }, { index: 0 }]) {
      ipc.dispatch({ method: OpenDiffCommand.method, params });
    }
    ipc.dispatch({ method: SendPromptCommand.method, params: { text: '   ' } }); // an empty prompt
    assert.deepEqual(got, []);
    assert.equal(warnings.length, 5);
    for (const w of warnings.slice(0, 4)) assert.match(w, /^chat webview sent an invalid message, ignored: chat\/diff\/open: /);
    assert.match(warnings[4], /chat\/prompt\/send: .*an empty prompt/s);
  });

  it('drops and logs unknown methods and messages that are not commands', () => {
    const { ipc, warnings } = dispatcher();
    ipc.dispatch({ method: 'chat/nope', params: {} });
    ipc.dispatch({ method: 'toString', params: {} }); // not an own property of the table
    ipc.dispatch('chat/state/request');
    ipc.dispatch({ params: {} });
    ipc.dispatch({ method: 'x'.repeat(200), params: {} });
    assert.deepEqual(warnings, [
      'chat webview sent an invalid message, ignored: unknown method chat/nope',
      'chat webview sent an invalid message, ignored: unknown method toString',
      'chat webview sent an invalid message, ignored: not an IPC message',
      'chat webview sent an invalid message, ignored: not an IPC message',
      'chat webview sent an invalid message, ignored: not an IPC message',
    ]);
  });

  it('logs a known command nobody handles, and a handler whose promise rejects', async () => {
    const { ipc, warnings } = dispatcher();
    ipc.on(OpenLinkCommand, () => Promise.reject(new Error('boom')));
    ipc.dispatch({ method: CancelTurnCommand.method, params: {} });
    ipc.dispatch({ method: OpenLinkCommand.method, params: { href: 'https://example.com' } });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(warnings, [
      'chat webview sent an invalid message, ignored: no handler for chat/turn/cancel',
      'chat webview command chat/link/open failed: boom',
    ]);
  });

  it('has one handler per method; dispose removes it', () => {
    const { ipc, warnings } = dispatcher();
    const sub = ipc.on(CancelTurnCommand, () => undefined);
    assert.throws(() => ipc.on(CancelTurnCommand, () => undefined), /has a handler already/);
    sub.dispose();
    ipc.dispatch({ method: CancelTurnCommand.method, params: {} });
    assert.deepEqual(warnings, ['chat webview sent an invalid message, ignored: no handler for chat/turn/cancel']);
    let calls = 0;
    ipc.on(CancelTurnCommand, () => { calls++; });
    ipc.dispatch({ method: CancelTurnCommand.method, params: {} });
    assert.equal(calls, 1);
  });

  it('takes Open full output of a tool call part by name and index, never a text, and rejects anything else', () => {
    const { ipc, warnings } = dispatcher();
    const got: OpenToolOutputParams[] = [];
    ipc.on(OpenToolOutputCommand, (params) => { got.push(params); });
    ipc.dispatch({ method: OpenToolOutputCommand.method, params: { toolCallId: 'c', part: 'content', index: 0 } });
    ipc.dispatch({ method: OpenToolOutputCommand.method, params: { toolCallId: 'c', part: 'rawText', label: 'stderr', sessionId: 'sub' } });
    for (const params of [{ toolCallId: 'c', part: 'file' }, { toolCallId: 'c', part: 'rawText', label: 'stdin' }, { toolCallId: 'c', part: 'content', index: -1 }, { toolCallId: 'c', part: 'content', text: 'x' }, { part: 'rawJson' }]) {
      ipc.dispatch({ method: OpenToolOutputCommand.method, params });
    }
    assert.deepEqual(got, [{ toolCallId: 'c', part: 'content', index: 0 }, { toolCallId: 'c', part: 'rawText', label: 'stderr', sessionId: 'sub' }]);
    assert.equal(warnings.length, 5);
    for (const w of warnings) assert.match(w, /chat\/toolOutput\/open: /);
  });

  it('ties the schema table to the commands at compile time', () => {
    // a schema whose output is not the params type of its command does not fit the table
    // @ts-expect-error index must be a number
    const drifted: Pick<IpcSchemaTable, typeof OpenDiffCommand.method> = { [OpenDiffCommand.method]: z.strictObject({ toolCallId: z.string(), index: z.string() }) };
    // a table without the schema of a command is not a table
    const incomplete: Omit<typeof ipcSchemas, typeof OpenDiffCommand.method> = ipcSchemas;
    // @ts-expect-error chat/diff/open has no schema
    const table: IpcSchemaTable = incomplete;
    // a notification is not a command: there is nothing to register for it
    // @ts-expect-error only commands have handlers
    dispatcher().ipc.on({ method: 'chat/thread/didChange' }, () => undefined);
    assert.ok(drifted && table);
  });
});
