import * as assert from 'node:assert/strict';
import { maxOpenChats, mergeOpenChats, parseOpenChats, PendingChats, type OpenChat } from '../../../src/chatHost/openChats';

// The saved list of open chats: a save made while some panels are still waiting to be restored keeps them.

const chat = (sessionId: string, over: Partial<OpenChat> = {}): OpenChat =>
  ({ agentId: 'demo', sessionId, cwd: '/w', panelTitle: `${sessionId} · Demo agent`, title: sessionId, ...over });
const ids = (list: readonly OpenChat[]) => list.map((c) => `${c.agentId}/${c.sessionId}`);

describe('open chats list (src/chatHost/openChats)', () => {
  it('the first panel restored does not drop the entries of panels not restored yet', () => {
    const pending = new PendingChats([chat('a'), chat('b'), chat('c')]);
    pending.done({ agentId: 'demo', sessionId: 'b' }); // b came back first
    const saved = mergeOpenChats([chat('b', { title: 'B now' })], pending.entries);
    assert.deepEqual(ids(saved), ['demo/b', 'demo/a', 'demo/c']);
    assert.equal(saved[0].title, 'B now', 'an open chat is saved as it is now');
  });

  it('lists a session once, the open chat winning, and keeps two agents with the same session id apart', () => {
    const saved = mergeOpenChats([chat('a', { title: 'new' })], [chat('a', { title: 'old' }), chat('a', { agentId: 'other' })]);
    assert.deepEqual(ids(saved), ['demo/a', 'other/a']);
    assert.equal(saved[0].title, 'new');
  });

  it('forgets a waiting entry once its panel was restored or closed, and matches the rest by panel title', () => {
    const pending = new PendingChats([chat('a'), chat('b')]);
    assert.equal(pending.find({ agentId: 'demo', sessionId: 'a' })?.title, 'a');
    assert.equal(pending.byTitle('b · Demo agent', () => false)?.sessionId, 'b');
    assert.equal(pending.byTitle('b · Demo agent', (c) => c.sessionId === 'b'), undefined, 'not a session that is open');
    pending.done({ agentId: 'demo', sessionId: 'a' });
    pending.done({ agentId: 'demo', sessionId: 'zzz' });
    assert.deepEqual(ids(pending.entries), ['demo/b']);
    assert.deepEqual(ids(mergeOpenChats([], pending.entries)), ['demo/b']);
  });

  it(`keeps at most ${maxOpenChats} entries, open chats first`, () => {
    const waiting = Array.from({ length: maxOpenChats }, (_, i) => chat(`w${i}`));
    const saved = mergeOpenChats([chat('open')], waiting);
    assert.equal(saved.length, maxOpenChats);
    assert.equal(saved[0].sessionId, 'open');
  });

  it('reads back only valid entries', () => {
    assert.deepEqual(parseOpenChats(undefined), []);
    assert.deepEqual(parseOpenChats('x'), []);
    assert.deepEqual(ids(parseOpenChats([chat('a'), { agentId: 'demo' }, null, chat('b')])), ['demo/a', 'demo/b']);
  });
});
