import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { type HeldUpdate, mergeReplay } from '../../../src/thread/model/replayMerge';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ThreadEntry } from '../../../src/thread/model/threadEntries';

const sid = 's1';
const held = (...updates: SessionUpdate[]): HeldUpdate[] => updates.map((update) => ({ update, sessionId: sid }));
const user = (text: string): SessionUpdate => ({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
const agent = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const tool = (toolCallId: string, status: 'in_progress' | 'completed'): SessionUpdate => ({ sessionUpdate: 'tool_call', toolCallId, title: `run ${toolCallId}`, kind: 'execute', status });
const ours = (e: ThreadEntry) => e.kind === 'toolCall' && e.toolCallId.startsWith('switchboard-check-');

/** The transcript the client shows: the updates applied live, with the client's notices between them. */
function shown(...updates: (SessionUpdate | 'notice')[]): AcpThread {
  const t = new AcpThread(sid);
  for (const u of updates) {
    if (u === 'notice') t.addNotice('warning', 'lost its connection');
    else t.handleSessionUpdate(u);
  }
  return t;
}
/** Kind and text of each entry, notices left out. */
const transcript = (t: AcpThread) => t.entries.filter((e) => e.kind !== 'notice').map((e) => `${e.kind}: ${'text' in e ? e.text : 'toolCallId' in e ? `${e.toolCallId} ${e.status}` : ''}`);

describe('merging the replay of session/load into the transcript shown', () => {
  it('applies nothing when the replay is what is shown', () => {
    const t = shown(user('hi'), agent('hello'), 'notice');
    const merge = mergeReplay(t.entries, held(user('hi'), agent('hel'), agent('lo')), sid, ours);
    assert.deepEqual(merge.updates, []);
    assert.equal(merge.note, undefined);
  });

  it('adds what the agent did while disconnected: the rest of a message, a finished tool call, a later turn; nothing twice', () => {
    const t = shown(user('build it'), tool('t1', 'in_progress'), agent('Working'), 'notice');
    const replay = held(user('build it'), tool('t1', 'in_progress'), { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
      agent('Working'), agent(' on it. Done.'), tool('t2', 'completed'), agent('All green.'));
    const merge = mergeReplay(t.entries, replay, sid, ours);
    for (const u of merge.updates) t.handleSessionUpdate(u.update, u.sessionId);
    const clean = new AcpThread(sid);
    for (const u of replay) clean.handleSessionUpdate(u.update, u.sessionId);
    assert.deepEqual(transcript(t).filter((l) => !l.startsWith('agent')), transcript(clean).filter((l) => !l.startsWith('agent')), 'every tool call once, with its final status');
    assert.equal(transcript(t).filter((l) => l.startsWith('agent')).map((l) => l.slice(7)).join(''), 'Working on it. Done.All green.', 'every word of the agent once');
  });

  it('leaves out live notices of the replay and the client\'s own cards, and says when the histories differ', () => {
    const t = shown(user('a'), agent('b'));
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'switchboard-check-1-x', title: 'Run a command', kind: 'execute', status: 'completed' });
    const notice = { sessionUpdate: 'notice', level: 'info', message: 'live only' } as unknown as SessionUpdate;
    assert.deepEqual(mergeReplay(t.entries, [...held(user('a'), agent('b')), { update: notice, sessionId: sid }], sid, ours).updates, [], 'the client\'s card is not history; the notice is dropped');
    const differs = mergeReplay(t.entries, held(agent('x'), user('y'), agent('z')), sid, ours);
    assert.match(differs.note ?? '', /entry 1 is user here, agent in the replay/);
    assert.equal(differs.updates.length, 1, 'what the replay has beyond the shown entries is still added');
  });
});
