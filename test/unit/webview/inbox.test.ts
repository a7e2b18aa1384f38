import * as assert from 'node:assert/strict';
import { chatInbox } from '../../../webview/inbox';
import type { Inbox, InboxTransport } from '../../../webview/inbox';
import {
  DidAddAttachmentNotification, DidChangeAccountNotification, DidChangeChangedFilesNotification, DidChangeComposerNotification,
  DidChangeThreadNotification, DidChangeWelcomeNotification, DidLoadEntriesNotification, DidRequestFocusNotification,
  DidSearchFilesNotification, DidSnapshotThreadNotification, SendPromptCommand,
} from '../../../src/shared/chatProtocol';
import type { NotificationMethod, PostCommand, PostNotification } from '../../../src/shared/chatProtocol';

/** A transport whose messages the test sends. */
function fakeTransport(): InboxTransport & { send(data: unknown): void } {
  let listener: (data: unknown) => void = () => undefined;
  return { onMessage: (l) => { listener = l; }, send: (data) => listener(data) };
}

/** An inbox with a handler for every notification, each recording what it got. */
function recordingInbox(): { inbox: Inbox<NotificationMethod>; got: Array<[string, unknown]> } {
  const got: Array<[string, unknown]> = [];
  const record = (name: string) => (params: unknown) => { got.push([name, params]); };
  const inbox = chatInbox()
    .on(DidSnapshotThreadNotification, (snapshot) => record('snapshot')(snapshot.seq))
    .on(DidChangeThreadNotification, (change) => record('change')(change.firstSeq))
    .on(DidLoadEntriesNotification, (older) => record('older')(older.from))
    .on(DidChangeComposerNotification, (state) => record('composer')(state.sendWith))
    .on(DidChangeWelcomeNotification, record('welcome'))
    .on(DidSearchFilesNotification, (found) => record('files')(found.requestId))
    .on(DidAddAttachmentNotification, (added) => record('attach')(added.attachment.name))
    .on(DidChangeChangedFilesNotification, record('changedFiles'))
    .on(DidRequestFocusNotification, record('focus'))
    .on(DidChangeAccountNotification, record('account'));
  return { inbox, got };
}

describe('the webview inbox (webview/inbox.ts): the host notifications, typed by the protocol table', () => {
  it('hands each notification its own params', () => {
    const { inbox, got } = recordingInbox();
    const transport = fakeTransport();
    inbox.listen(transport);
    transport.send({ method: DidChangeThreadNotification.method, params: { firstSeq: 7, deltas: [] } });
    transport.send({ method: DidRequestFocusNotification.method, params: {} });
    transport.send({ method: DidSearchFilesNotification.method, params: { requestId: 3, matches: [] } });
    transport.send({ method: DidAddAttachmentNotification.method, params: { attachment: { kind: 'file', id: 'a', name: 'x.ts' } } });
    assert.deepEqual(got, [['change', 7], ['focus', {}], ['files', 3], ['attach', 'x.ts']]);
  });

  it('ignores what is not a notification it handles', () => {
    const { inbox, got } = recordingInbox();
    const transport = fakeTransport();
    inbox.listen(transport);
    for (const junk of [undefined, null, 'chat/focus/didRequest', 42, [], {}, { params: {} }, { method: 7, params: {} },
      { method: SendPromptCommand.method, params: { text: 'hi' } }, { method: 'chat/focus/didRequested', params: {} },
      { method: 'toString', params: {} }, { method: '__proto__', params: {} }, { method: 'constructor', params: {} }]) {
      transport.send(junk);
    }
    assert.deepEqual(got, []);
  });

  it('ties handlers, senders and the table together at compile time', () => {
    const partial = chatInbox().on(DidRequestFocusNotification, () => undefined);
    // @ts-expect-error an inbox that misses a notification cannot listen
    partial.listen(fakeTransport());
    // @ts-expect-error a notification has one handler
    partial.on(DidRequestFocusNotification, () => undefined);
    // @ts-expect-error a handler takes the params of its notification
    chatInbox().on(DidChangeThreadNotification, (snapshot: { entries: [] }) => snapshot);
    // @ts-expect-error a command is not a notification
    chatInbox().on(SendPromptCommand, () => undefined);
    const post: PostNotification = () => undefined;
    // @ts-expect-error the host posts notifications only, each with its params
    post(SendPromptCommand, { text: 'hi' });
    // @ts-expect-error the params of another notification
    post(DidChangeThreadNotification, { seq: 1, state: undefined, entries: [] });
    const send: PostCommand = () => undefined;
    // @ts-expect-error the webview posts commands only
    send(DidRequestFocusNotification, {});
    assert.ok(partial);
  });
});
