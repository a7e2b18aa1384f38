/**
 * A chat panel leaves nothing behind when it closes (src/chatHost/chatPanels.ts): a session whose chat
 * opens in a tab and closes again 50 times (it moves to the Chat view, which then shows another session, so the
 * session itself stays open) has as many listeners on its thread as after the first time.
 */
import * as assert from 'node:assert/strict';
import type { SwitchboardTestApi } from '../../src/api';
import { api, until, useScriptedAgent } from './helpers';

type Thread = NonNullable<ReturnType<SwitchboardTestApi['session']>>['thread'];

/** Counts, from now on, the subscriptions to a thread's changes that were not disposed yet. */
function countListeners(thread: Thread): () => number {
  const subscribe = thread.onDidChange;
  let live = 0;
  const counted = (listener: Parameters<Thread['onDidChange']>[0], thisArgs?: unknown, disposables?: { dispose(): void }[]) => {
    const inner = subscribe(listener, thisArgs);
    live++;
    let disposed = false;
    const subscription = { dispose: () => { if (!disposed) { disposed = true; live--; } inner.dispose(); } };
    disposables?.push(subscription);
    return subscription;
  };
  Object.defineProperty(thread, 'onDidChange', { value: counted });
  return () => live;
}

describe('chat panels', function () {
  this.timeout(180000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });

  it('leave no listener behind: 50 panels of one session opened and closed', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const a = await sb.newSession(agent, { chat: true });
    const b = await sb.newSession(agent, { chat: true });
    const session = sb.session(a);
    assert.ok(session);
    const live = countListeners(session.thread);
    const openAndClose = async () => {
      sb.showInChatView(a); // its tab closes; the session stays open, in the Chat view
      sb.showInChatView(b); // the view shows the other session: this one has no chat now
      assert.equal(sb.chatLocation(a), undefined);
      await sb.openSession(agent, a); // a new tab
      await until(() => sb.chatLocation(a) === 'tab', 'the session\'s new tab');
    };
    await openAndClose();
    const first = live();
    assert.ok(first > 0, 'the open tab listens to the thread');
    for (let i = 0; i < 50; i++) await openAndClose();
    assert.equal(live() - first, 0, `after 50 more panels the thread has ${live()} listeners, ${first} after the first`);
    assert.ok(sb.sessionIds().includes(a), 'the session stayed open');
  });
});
