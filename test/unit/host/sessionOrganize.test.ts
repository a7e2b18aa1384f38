/**
 * Organizing sessions (docs/sessions.md "Organizing sessions"): the client's records of user titles and
 * archive flags, how history merges them, and that every unstable method (session/set_title, archive,
 * unarchive, status, the archived filter of session/list) is sent only to an agent that advertises it.
 */
import type { ApprovalLevel } from '../../../src/shared/approvalLevel';
import * as assert from 'node:assert/strict';
import { AcpError, AcpErrorCodes } from '../../../src/acp/errors';
import type { AcpConnection } from '../../../src/acp/connection';
import type { AgentHost } from '../../../src/host/agentHost';
import type { AgentSession } from '../../../src/host/agentSession';
import { listAgentSessions, mergeHistory } from '../../../src/host/history/sessionHistory';
import { maxSessionTitle, sessionMetaKey, SessionMetaStore, type SessionMetaMemory } from '../../../src/host/history/sessionMeta';
import { SessionOrganizer } from '../../../src/host/history/sessionOrganizer';
import { reopenStatus } from '../../../src/host/history/sessionStatus';
import { sessionKey } from '../../../src/host/sessionKey';
import { AcpThread } from '../../../src/thread/model/thread';

class Memory implements SessionMetaMemory {
  readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): PromiseLike<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

type Call = { method: string; params: Record<string, unknown> };

/** An agent host with these session capabilities whose connection records requests and answers with `answer`. */
function fakeHost(sessionCapabilities: Record<string, unknown>, answer: (c: Call) => unknown = () => ({}), state: 'ready' | 'exited' = 'ready') {
  const calls: Call[] = [];
  const warnings: string[] = [];
  const connection = {
    request: async (method: string, params: Record<string, unknown>) => {
      calls.push({ method, params });
      return answer({ method, params });
    },
  };
  const host = {
    state, definition: { id: 'agent', name: 'Agent' }, connection, log: { warn: (m: string) => warnings.push(m), info: () => undefined },
    initializeResponse: { protocolVersion: 1, agentCapabilities: { sessionCapabilities } },
  } as unknown as AgentHost;
  return { host, calls, warnings, connection: connection as unknown as AcpConnection };
}

function organizer(host: AgentHost | undefined, open: Map<string, AgentSession> = new Map()) {
  const meta = new SessionMetaStore(new Memory());
  const closed: string[] = [];
  let changes = 0;
  const org = new SessionOrganizer({
    meta, sessionOf: (k) => open.get(k), hostOf: () => host, close: (k) => { closed.push(k); open.delete(k); }, changed: () => { changes++; },
  });
  return { org, meta, closed, changes: () => changes };
}

describe('host / session meta store (user titles, archive flags)', () => {
  it('keeps titles and archive flags per agent and session, and a new store over the same memory reads them back', () => {
    const memory = new Memory();
    const meta = new SessionMetaStore(memory);
    meta.setTitle('a', 's1', 'Release notes');
    meta.setArchived('a', 's2', true);
    meta.setArchived('b', 's1', false);
    const again = new SessionMetaStore(memory); // a window reload
    assert.deepEqual(again.get('a', 's1'), { title: 'Release notes' });
    assert.deepEqual(again.get('a', 's2'), { archived: true });
    assert.deepEqual(again.get('b', 's1'), { archived: false }, 'an explicit unarchive is kept (it wins over the agent)');
    again.forget('a', 's1');
    assert.deepEqual(new SessionMetaStore(memory).get('a', 's1'), {});
  });

  it('drops records that do not parse and keeps the others; masks and caps titles', () => {
    const memory = new Memory();
    memory.values.set(sessionMetaKey, { v: 1, sessions: { [sessionKey('a', 'ok')]: { title: 'Fine', t: 1 }, [sessionKey('a', 'bad')]: { title: 42, t: 'x' } } });
    const meta = new SessionMetaStore(memory, (t) => t.replace('sk-secret', '***'));
    assert.deepEqual(meta.get('a', 'ok'), { title: 'Fine' });
    assert.deepEqual(meta.get('a', 'bad'), {});
    meta.setTitle('a', 'x', `key sk-secret ${'y'.repeat(500)}`);
    const title = meta.get('a', 'x').title ?? '';
    assert.ok(title.startsWith('key *** '), title);
    assert.equal(Array.from(title).length, maxSessionTitle);
    assert.deepEqual(new SessionMetaStore({ get: () => 'garbage', update: () => Promise.resolve() }).get('a', 'ok'), {});
  });

  it('keeps the approval level the user chose; a level it does not know is none, and the title stays', () => {
    const memory = new Memory();
    const meta = new SessionMetaStore(memory);
    meta.setApprovals('a', 's1', 'ask');
    meta.setTitle('a', 's1', 'Careful work');
    assert.deepEqual(new SessionMetaStore(memory).get('a', 's1'), { title: 'Careful work', approvals: 'ask' });
    meta.setApprovals('a', 's1', undefined);
    assert.deepEqual(new SessionMetaStore(memory).get('a', 's1'), { title: 'Careful work' });
    memory.values.set(sessionMetaKey, { v: 1, sessions: { [sessionKey('a', 'later')]: { title: 'Newer', approvals: 'everything', t: 1 } } });
    assert.deepEqual(new SessionMetaStore(memory).get('a', 'later'), { title: 'Newer' }, 'a later version\'s level: the settings\' level, the title kept');
  });

  it('restores a session\'s title and level, and records the level the user chooses later', () => {
    const memory = new Memory();
    const meta = new SessionMetaStore(memory);
    meta.setApprovals('a', 's1', 'reads');
    const listeners: (() => void)[] = [];
    const got: { title?: string; level?: string } = {};
    const session = {
      thread: { setUserTitle: (t: string | undefined) => { got.title = t; } },
      permissions: { chosenLevel: undefined as ApprovalLevel | undefined, setLevel(l: ApprovalLevel | undefined) { this.chosenLevel = l; got.level = l; }, onDidChangeLevel: (l: () => void) => listeners.push(l) },
    };
    meta.restore('a', 's1', session);
    assert.deepEqual(got, { title: undefined, level: 'reads' });
    session.permissions.chosenLevel = 'ask';
    listeners.forEach((l) => l());
    assert.equal(new SessionMetaStore(memory).get('a', 's1').approvals, 'ask');
  });
});

describe('host / history with the user\'s titles and archive flags', () => {
  const store = { list: () => [{ agentId: 'a', agentName: 'A', sessionId: 's1', cwd: '/w', title: 'Stored title', updatedAt: 2, createdAt: 1, bytes: 1, file: 'f' }] };

  it('the user\'s title wins over the store\'s and the agent\'s; the user\'s archive flag over the agent\'s', () => {
    const listed = new Map([['a', { agentName: 'A', sessions: [
      { sessionId: 's1', cwd: '/w', title: 'Agent title', archived: true },
      { sessionId: 's2', cwd: '/w', title: 'Two', archived: true },
      { sessionId: 's3', cwd: '/w', title: 'Three' },
    ] }]]);
    const meta = new SessionMetaStore(new Memory());
    meta.setTitle('a', 's1', 'My title');
    meta.setArchived('a', 's1', false);
    meta.setArchived('a', 's3', true);
    const rows = mergeHistory({ open: [], store, listed, meta: (a, s) => meta.get(a, s) });
    const byId = Object.fromEntries(rows.map((r) => [r.sessionId, r]));
    assert.equal(byId.s1?.title, 'My title');
    assert.equal(byId.s1?.archived, false, 'unarchived in Switchboard');
    assert.equal(byId.s2?.archived, true, 'archived by the agent');
    assert.equal(byId.s3?.archived, true, 'archived in Switchboard');
    assert.equal(mergeHistory({ open: [], store, listed: new Map() })[0]?.archived, false);
  });

  it('sends the archived filter of session/list only to an agent that advertises archive, on every page', async () => {
    const withArchive = fakeHost({ list: {}, archive: {} }, ({ params }) => (params.cursor ? { sessions: [] } : { sessions: [{ sessionId: 's', cwd: '/w' }], nextCursor: 'p2' }));
    await listAgentSessions(withArchive.connection, withArchive.host.initializeResponse?.agentCapabilities, '/w', 'include');
    assert.deepEqual(withArchive.calls.map((c) => c.params), [{ cwd: '/w', archived: 'include' }, { cwd: '/w', cursor: 'p2', archived: 'include' }]);
    const plain = fakeHost({ list: {} }, () => ({ sessions: [] }));
    await listAgentSessions(plain.connection, plain.host.initializeResponse?.agentCapabilities, '/w', 'include');
    assert.deepEqual(plain.calls.map((c) => c.params), [{ cwd: '/w' }], 'no archived field without the capability');
  });
});

describe('host / session organizer (rename, archive, unarchive)', () => {
  it('renames for every agent: the open thread shows it at once; session/set_title only with the capability', async () => {
    const thread = new AcpThread('s1');
    thread.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Agent title' });
    const open = new Map([[sessionKey('agent', 's1'), { thread } as unknown as AgentSession]]);
    const plain = fakeHost({ list: {} });
    const { org, meta, changes } = organizer(plain.host, open);
    const res = await org.rename('agent', 's1', '  My   title ');
    assert.deepEqual([res.title, res.agent], ['My title', 'local']);
    assert.equal(thread.title, 'My title');
    assert.equal(meta.get('agent', 's1').title, 'My title');
    assert.ok(changes() > 0, 'history is told');
    assert.deepEqual(plain.calls, [], 'no session/set_title without sessionCapabilities.title');
    thread.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'A newer agent title' });
    assert.equal(thread.title, 'My title', 'the user\'s title wins over later agent titles');
    await assert.rejects(org.rename('agent', 's1', '   '), /empty/);
  });

  it('sends session/set_title to an agent that supports it and shows the title it stored', async () => {
    const capable = fakeHost({ title: {} }, () => ({ title: 'my title (normalized)' }));
    const { org, meta } = organizer(capable.host);
    const res = await org.rename('agent', 's1', 'My title');
    assert.deepEqual(capable.calls, [{ method: 'session/set_title', params: { sessionId: 's1', title: 'My title' } }]);
    assert.deepEqual([res.agent, res.title, meta.get('agent', 's1').title], ['told', 'my title (normalized)', 'my title (normalized)']);
  });

  it('keeps the local title when the agent refuses, and says why; an agent that is not running is not asked', async () => {
    const refusing = fakeHost({ title: {} }, () => { throw new AcpError('remote', 'Internal error: titles are read-only here', AcpErrorCodes.InternalError); });
    const { org, meta } = organizer(refusing.host);
    const res = await org.rename('agent', 's1', 'Kept');
    assert.deepEqual([res.agent, res.title, meta.get('agent', 's1').title], ['failed', 'Kept', 'Kept']);
    assert.match(res.error ?? '', /read-only here/);
    assert.equal(refusing.warnings.length, 1);
    const exited = fakeHost({ title: {}, archive: {} }, () => ({ title: 'x' }), 'exited');
    assert.equal((await organizer(exited.host).org.rename('agent', 's1', 'T')).agent, 'local');
    assert.equal((await organizer(undefined).org.archive('agent', 's1')).agent, 'local', 'no agent started for this');
    assert.deepEqual(exited.calls, []);
  });

  it('archives (closing an open session first) and unarchives; the protocol only with sessionCapabilities.archive', async () => {
    const capable = fakeHost({ archive: {} });
    const open = new Map([[sessionKey('agent', 's1'), { thread: new AcpThread('s1') } as unknown as AgentSession]]);
    const { org, meta, closed } = organizer(capable.host, open);
    assert.equal((await org.archive('agent', 's1')).agent, 'told');
    assert.deepEqual(closed, [sessionKey('agent', 's1')], 'an open session leaves first');
    assert.equal(meta.get('agent', 's1').archived, true);
    assert.equal((await org.unarchive('agent', 's1')).agent, 'told');
    assert.equal(meta.get('agent', 's1').archived, false);
    assert.deepEqual(capable.calls.map((c) => c.method), ['session/archive', 'session/unarchive']);
    const plain = fakeHost({ list: {}, close: {}, delete: {} });
    const local = organizer(plain.host);
    await local.org.archive('agent', 's2');
    await local.org.unarchive('agent', 's2');
    assert.deepEqual(plain.calls, [], 'no session/archive or unarchive without the capability');
    assert.equal(local.meta.get('agent', 's2').archived, false);
  });

  it('deletes: the client\'s records go too; session/delete only with its capability', async () => {
    const capable = fakeHost({ delete: {} });
    const { org, meta } = organizer(capable.host);
    meta.setTitle('agent', 's1', 'Doomed');
    assert.equal(await org.delete('agent', 's1'), true);
    assert.deepEqual(meta.get('agent', 's1'), {});
    assert.deepEqual(capable.calls.map((c) => c.method), ['session/delete']);
    assert.equal(await organizer(fakeHost({ list: {} }).host).org.delete('agent', 's1'), false);
  });
});

describe('host / session/status before a reopen', () => {
  it('is asked only when advertised; open and saved go on, an unknown value counts as saved, -32002 is unknown', async () => {
    const plain = fakeHost({ resume: {} });
    assert.equal(await reopenStatus(plain.host, 's1'), 'saved');
    assert.deepEqual(plain.calls, [], 'no session/status without sessionCapabilities.status');
    for (const [status, expected] of [['open', 'open'], ['saved', 'saved'], ['_evicted', 'saved']]) {
      assert.equal(await reopenStatus(fakeHost({ status: {} }, () => ({ status })).host, 's1'), expected);
    }
    const unknown = fakeHost({ status: {} }, () => { throw new AcpError('remote', 'Resource not found', AcpErrorCodes.ResourceNotFound); });
    assert.equal(await reopenStatus(unknown.host, 's1'), 'unknown');
    const broken = fakeHost({ status: {} }, () => { throw new AcpError('remote', 'Internal error', AcpErrorCodes.InternalError); });
    assert.equal(await reopenStatus(broken.host, 's1'), 'saved', 'another failure does not stop the reopen');
    assert.equal(broken.warnings.length, 1);
  });
});
