/**
 * A session's live state (src/thread/view/sessionActivity.ts, src/shared/sessionState.ts): exactly one of streaming,
 * waiting for you (permission, question, login), failed, finished and unread, idle; with the time it entered it
 * and the plan step, derived from a real thread.
 */
import * as assert from 'node:assert/strict';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { duration, stateLabel, stateLine, stateRank, stateWords, tabPrefix, type SessionStateKind } from '../../../src/shared/sessionState';
import { currentPlanStep, deriveSessionState, SessionActivity } from '../../../src/thread/view/sessionActivity';
import { AcpThread } from '../../../src/thread/model/thread';

/** A thread, its activity, a clock the test moves, and the host's facts the test sets. */
function setup(visible = false) {
  const thread = new AcpThread('s1');
  thread.setStatus('idle');
  const host = { visible, elicitations: 0 };
  let now = 1_000;
  const activity = new SessionActivity(thread, { isVisible: () => host.visible, pendingElicitations: () => host.elicitations }, () => now);
  const kinds: string[] = [];
  activity.onDidChange((s) => kinds.push(s.reason ? `${s.kind}:${s.reason}` : s.kind));
  return { thread, activity, host, kinds, tick: (ms: number) => { now += ms; }, now: () => now };
}

describe('session state: derivation', () => {
  it('is one state, the most urgent first', () => {
    const cases: [Parameters<typeof deriveSessionState>[0], string][] = [
      [{ status: 'idle' }, 'idle'],
      [{ status: 'working' }, 'streaming'],
      [{ status: 'awaitingPermission', turnFailure: 'x', unread: true }, 'waiting:permission'],
      [{ status: 'working', login: true }, 'waiting:login'],
      [{ status: 'working', elicitations: 2 }, 'waiting:elicitation'],
      [{ status: 'idle', turnFailure: 'Internal error' }, 'failed'],
      [{ status: 'disconnected', error: 'exited', errorAction: 'restart' }, 'failed'],
      [{ status: 'idle', unseenFailure: 'Agent exited (code 1)' }, 'failed'],
      [{ status: 'idle', unread: true }, 'unread'],
      [{ status: 'working', unread: true }, 'streaming'],
      [{ status: 'disconnected', error: 'read-only', errorAction: 'continue', readOnly: true }, 'idle'],
      [{ status: 'disconnected', error: 'Agent was stopped.' }, 'idle'],
      [{ status: 'starting' }, 'idle'],
    ];
    for (const [facts, expected] of cases) {
      const s = deriveSessionState(facts);
      assert.equal(s.reason ? `${s.kind}:${s.reason}` : s.kind, expected, JSON.stringify(facts));
    }
    assert.equal(deriveSessionState({ status: 'idle', turnFailure: 'model overloaded' }).detail, 'model overloaded');
    assert.equal(deriveSessionState({ status: 'idle', readOnly: true }).detail, 'read-only');
  });

  it('takes the plan step in progress, newest plan by id first, else the next pending while the plan runs', () => {
    const legacy = [{ content: 'Read', priority: 'high' as const, status: 'completed' as const }, { content: 'Write', priority: 'high' as const, status: 'pending' as const }];
    assert.equal(currentPlanStep(legacy, [], false), 'Write');
    assert.equal(currentPlanStep(legacy, [], true), undefined, 'a cancelled plan has no step');
    const byId = [{ planId: 'p', type: 'items' as const, entries: [{ content: 'Test', priority: 'low' as const, status: 'in_progress' as const }] }];
    assert.equal(currentPlanStep(legacy, byId, false), 'Test');
    assert.equal(currentPlanStep([], [{ planId: 'm', type: 'markdown', content: '# x' }], false), undefined);
  });
});

describe('session state: a session over its turns', () => {
  it('streams, waits for a permission, streams again, and is unread when its turn ends hidden until seen', () => {
    const { thread, activity, kinds, tick } = setup();
    thread.setStatus('working');
    assert.equal(activity.state.kind, 'streaming');
    const since = activity.state.since;
    tick(5_000);
    thread.handleSessionUpdate(zSessionUpdate.parse({ sessionUpdate: 'plan', entries: [{ content: 'Run the tests', priority: 'high', status: 'in_progress' }] }));
    assert.equal(activity.state.planStep, 'Run the tests');
    assert.equal(activity.state.since, since, 'a new plan step keeps the time of the state');
    thread.setPermission({ toolCallId: 't1', title: 'Edit' }, 'r1', [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }]);
    assert.deepEqual([activity.state.kind, activity.state.reason], ['waiting', 'permission']);
    assert.ok(activity.state.since > since, 'a new state has its own time');
    thread.clearPermission('r1', 'a');
    thread.endTurn('end_turn');
    assert.equal(activity.state.kind, 'unread');
    activity.markSeen();
    assert.equal(activity.state.kind, 'idle');
    assert.deepEqual(kinds, ['streaming', 'streaming', 'waiting:permission', 'streaming', 'unread', 'idle']);
  });

  it('a turn that ends with its chat on screen is read at once', () => {
    const { thread, activity } = setup(true);
    thread.setStatus('working');
    thread.endTurn('end_turn');
    assert.equal(activity.state.kind, 'idle');
  });

  it('a failed turn stays failed until the next turn starts', () => {
    const { thread, activity } = setup();
    thread.setStatus('working');
    activity.turnFailed('Internal error: model overloaded');
    thread.setStatus('idle');
    assert.deepEqual([activity.state.kind, activity.state.detail], ['failed', 'Internal error: model overloaded']);
    activity.markSeen();
    assert.equal(activity.state.kind, 'failed', 'seeing it does not fix it');
    thread.setStatus('working');
    assert.equal(activity.state.kind, 'streaming');
    thread.endTurn('end_turn');
    assert.equal(activity.state.kind, 'unread', 'the next turn finished normally');
  });

  it('waits for a question and for a login; a crash fails until the user saw it after the restart', () => {
    const { thread, activity, host } = setup();
    thread.setStatus('working');
    host.elicitations = 1;
    activity.update();
    assert.equal(activity.state.reason, 'elicitation');
    host.elicitations = 0;
    activity.setLogin(true);
    assert.equal(activity.state.reason, 'login');
    activity.setLogin(false);
    assert.equal(activity.state.kind, 'streaming');
    thread.setStatus('disconnected', 'exited with code 1', 'restart');
    thread.markFailure('Agent exited (code 1)');
    assert.deepEqual([activity.state.kind, activity.state.detail], ['failed', 'Agent exited (code 1)']);
    thread.setStatus('idle');
    assert.equal(activity.state.kind, 'failed', 'restarted: still failed until seen');
    thread.acknowledgeFailure();
    assert.equal(activity.state.kind, 'idle');
  });

  it('a read-only session is idle, "read-only"', () => {
    const { thread, activity } = setup();
    thread.setStatus('disconnected', 'Read-only: cannot reopen', 'continue');
    activity.setReadOnly();
    assert.deepEqual([activity.state.kind, activity.state.detail], ['idle', 'read-only']);
    assert.equal(stateWords(activity.state), 'read-only');
  });
});

describe('session state: words, icons and order', () => {
  it('says each state and for how long, with the plan step while it works', () => {
    assert.equal(stateLabel({ kind: 'waiting', reason: 'permission' }), 'waiting for you (permission)');
    assert.equal(stateLine({ kind: 'streaming', since: 0, planStep: 'Run the tests' }, 125_000), 'streaming for 2 min · step: Run the tests');
    assert.equal(stateLine({ kind: 'failed', since: 0, detail: 'Internal error' }, 3_000), 'failed for 3 s · Internal error');
    assert.equal(stateLine({ kind: 'unread', since: 0, planStep: 'x' }, 7_200_000), 'finished, unread for 2 h');
    assert.deepEqual([duration(59_000), duration(86_400_000), duration(3 * 86_400_000)], ['59 s', '1 day', '3 days']);
  });

  it('sorts waiting first, and marks a tab only when the session is not idle', () => {
    const kinds: SessionStateKind[] = ['idle', 'streaming', 'unread', 'failed', 'waiting'];
    assert.deepEqual([...kinds].sort((a, b) => stateRank(a) - stateRank(b)), ['waiting', 'failed', 'unread', 'streaming', 'idle']);
    assert.equal(tabPrefix('idle'), '');
    assert.ok(kinds.filter((k) => k !== 'idle').every((k) => tabPrefix(k).trim().length === 1));
  });
});
