/**
 * Fork Session (src/host/lifecycle/sessionFork.ts): `session/fork` only for an agent that advertises it, with the
 * setup fields of session/new; the fork shows a settled copy of the source's transcript under a "Forked from"
 * marker, "<title> (fork)" until the agent names it, and its own config options.
 */
import * as assert from 'node:assert/strict';
import type { AgentHost } from '../../../src/host/agentHost';
import type { AgentSession } from '../../../src/host/agentSession';
import { forkMarkerText, forkSession, whyNotForkable, type SessionForkDeps } from '../../../src/host/lifecycle/sessionFork';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { stateToView } from '../../../src/thread/view/toView';
import { AcpThread } from '../../../src/thread/model/thread';
import { header } from '../helpers/header';

function fakeHost(sessionCapabilities: Record<string, unknown>, state: 'ready' | 'exited' = 'ready') {
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  const host = {
    state, definition: { id: 'agent', name: 'Agent' }, log: { info: () => undefined, warn: () => undefined },
    initializeResponse: { protocolVersion: 1, agentCapabilities: { sessionCapabilities } },
    connection: {
      request: async (method: string, params: Record<string, unknown>) => {
        calls.push({ method, params });
        return { sessionId: 'fork-1', configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'smart', options: [{ value: 'smart', name: 'Smart' }] }] };
      },
    },
  } as unknown as AgentHost;
  return { host, calls };
}

/** A session object with just what forking uses. */
function fakeSession(host: AgentHost, sessionId: string, thread = new AcpThread(sessionId)): AgentSession & { dirs: readonly string[] } {
  const s = { host, sessionId, cwd: '/work', thread, dirs: [] as readonly string[], setAdditionalDirectories(d: readonly string[]) { s.dirs = d; } };
  return s as unknown as AgentSession & { dirs: readonly string[] };
}

describe('host / fork session', () => {
  it('is offered only for a running agent that advertises session/fork, and never for a read-only session', () => {
    assert.equal(whyNotForkable(fakeSession(fakeHost({ fork: {} }).host, 's'), false), undefined);
    assert.match(whyNotForkable(fakeSession(fakeHost({ resume: {} }).host, 's'), false) ?? '', /does not support forking/);
    assert.match(whyNotForkable(fakeSession(fakeHost({ fork: {} }, 'exited').host, 's'), false) ?? '', /not running/);
    assert.match(whyNotForkable(fakeSession(fakeHost({ fork: {} }).host, 's'), true) ?? '', /read-only/);
  });

  it('sends session/fork with the setup fields, and shows a settled copy of the transcript under the marker', async () => {
    const { host, calls } = fakeHost({ fork: {}, additionalDirectories: {} });
    const source = fakeSession(host, 'src');
    source.thread.addUserMessage([{ type: 'text', text: 'Plan the release' }]);
    source.thread.handleSessionUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Here is a plan.' } });
    source.thread.setPermission({ toolCallId: 'tc', title: 'Write notes', status: 'pending' }, 'req-1', [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }]);
    let adopted: AgentSession | undefined;
    const deps: SessionForkDeps = {
      setupFor: async (_h, cwd) => ({ cwd, mcpServers: [], additionalDirectories: ['/extra'] }),
      withAuth: (h, call) => call(h),
      create: (h, id) => fakeSession(h, id),
      adopt: async (s) => { adopted = s; },
    };
    const fork = await forkSession(deps, source);
    assert.deepEqual(calls, [{ method: 'session/fork', params: { sessionId: 'src', cwd: '/work', mcpServers: [], additionalDirectories: ['/extra'] } }]);
    assert.equal(adopted, fork);
    assert.equal(fork.sessionId, 'fork-1');
    assert.deepEqual((fork as AgentSession & { dirs: readonly string[] }).dirs, ['/extra']);
    const [marker, ...copied] = fork.thread.entries;
    assert.deepEqual(marker, { kind: 'notice', id: 'fork', level: 'info', text: forkMarkerText('Plan the release'), marker: 'fork' });
    assert.deepEqual(copied.map((e) => e.kind), ['user', 'agent', 'toolCall']);
    const tool = copied[2];
    assert.ok(tool?.kind === 'toolCall' && !tool.permission && tool.status === 'cancelled', 'nothing pending is copied');
    assert.ok(source.thread.hasPendingPermission(), 'the source keeps its request');
    assert.notEqual(copied[0], source.thread.entries[0], 'a copy, not the same objects');
    assert.equal(fork.thread.title, 'Plan the release (fork)');
    assert.equal(stateToView(fork.thread, header('Agent')).configOptions?.[0]?.id, 'model', 'the fork\'s own config options');
    fork.thread.addUserMessage([{ type: 'text', text: 'And now?' }]);
    assert.equal(fork.thread.title, 'Plan the release (fork)', 'a prompt does not rename it');
    fork.thread.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Release, take two' });
    assert.equal(fork.thread.title, 'Release, take two', 'until the agent names it');
  });

  it('copies plans by id and subagent cards, settled: the fork\'s card is a copy that no longer runs', async () => {
    const { host } = fakeHost({ fork: {} });
    const source = fakeSession(host, 'src');
    source.thread.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p1', content: '## Steps' } }));
    source.thread.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'subagent_update', sessionId: 'c1', title: 'Explore', state: { state: 'running' } }));
    source.thread.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Looking.' } }), 'c1');
    const deps: SessionForkDeps = { setupFor: async (_h, cwd) => ({ cwd, mcpServers: [] }), withAuth: (h, call) => call(h), create: (h, id) => fakeSession(h, id), adopt: async () => undefined };
    const fork = await forkSession(deps, source);
    assert.deepEqual(fork.thread.plans.map((p) => p.planId), ['p1']);
    assert.notEqual(fork.thread.plans, source.thread.plans, 'a copy of the plans');
    const card = fork.thread.subagent('c1');
    assert.ok(card, 'the fork knows the copied card');
    assert.deepEqual(card.entries.map((e) => e.kind), ['agent']);
    assert.deepEqual(card.state, { state: 'idle', stopReason: 'cancelled' }, 'the copy does not run');
    assert.equal(source.thread.subagent('c1')?.state?.state, 'running', 'the source\'s card is untouched');
  });
});

describe('thread title precedence', () => {
  it('user title > agent title > restored or provisional title > first prompt', () => {
    const t = new AcpThread('s');
    const titles: string[] = [];
    t.onDidChange((c) => { if (c.type === 'title') titles.push(t.title); });
    t.restore([], 'Stored', []);
    t.addUserMessage([{ type: 'text', text: 'hello' }]);
    assert.equal(t.title, 'Stored');
    t.setUserTitle('Mine');
    t.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Agent' });
    assert.equal(t.title, 'Mine');
    t.setUserTitle(undefined);
    assert.equal(t.title, 'Agent', 'clearing the user title shows the agent\'s again');
    assert.ok(titles.includes('Mine'));
  });
});
