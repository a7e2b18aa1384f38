import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { cancelGraceMs, TurnEnd } from '../../../src/host/prompts/turnEnd';
import type { Schedule, TurnOutcome } from '../../../src/host/prompts/turnEnd';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ToolCallEntry } from '../../../src/thread/model/toolCall';
import { entryOf, findEntry } from '../helpers/entries';

/** A manual clock: timers fire only when the test advances time. */
function manualClock() {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const schedule: Schedule = (fn, ms) => {
    const t = { at: now + ms, fn };
    timers.push(t);
    return { cancel: () => { timers = timers.filter((x) => x !== t); } };
  };
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    due.forEach((t) => t.fn());
  };
  return { schedule, advance, now: () => now, pending: () => timers.length };
}

/** A request the test answers by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

const flush = () => new Promise((r) => setImmediate(r));

function setup() {
  const clock = manualClock();
  const logs: string[] = [];
  const log = { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`) };
  const end = new TurnEnd(log, cancelGraceMs, clock.schedule, clock.now);
  return { clock, logs, end };
}

/** Tracks whether a turn's outcome promise settled, and how. */
function watch<T>(p: Promise<TurnOutcome<T>>) {
  const state: { outcome?: TurnOutcome<T>; error?: unknown } = {};
  p.then((o) => { state.outcome = o; }, (e: unknown) => { state.error = e; });
  return state;
}

const toolCall = (id: string, status: 'in_progress' | 'completed'): SessionUpdate => ({ sessionUpdate: 'tool_call', toolCallId: id, title: id, status });
const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

describe('TurnEnd (a turn always ends)', () => {
  it('the grace period is a documented 3 s', () => {
    assert.equal(cancelGraceMs, 3000);
  });

  it('an agent that answers within the grace period ends the turn itself, and the timer is released', async () => {
    const { clock, end } = setup();
    const answer = deferred<{ stopReason: string }>();
    const turn = watch(end.run(answer.promise));
    assert.equal(end.cancel(), 'waiting');
    assert.equal(end.isStopping, true);
    clock.advance(cancelGraceMs - 1);
    answer.resolve({ stopReason: 'cancelled' });
    await flush();
    assert.deepEqual(turn.outcome, { kind: 'answered', value: { stopReason: 'cancelled' } });
    assert.equal(clock.pending(), 0);
    assert.equal(end.cancel(), 'none', 'nothing left to cancel');
  });

  it('an agent that ignores the cancel: the turn is abandoned when the grace period runs out, not before', async () => {
    const { clock, end, logs } = setup();
    const turn = watch(end.run(deferred<unknown>().promise));
    end.cancel();
    clock.advance(cancelGraceMs - 1);
    await flush();
    assert.equal(turn.outcome, undefined, 'still waiting 1 ms before the end of the grace period');
    clock.advance(1);
    await flush();
    assert.deepEqual(turn.outcome, { kind: 'abandoned', afterMs: cancelGraceMs });
    assert.ok(logs.some((l) => l.startsWith('warn the agent did not answer the cancelled turn within 3000 ms')), logs.join('\n'));
  });

  it('a grace timer that fires a millisecond early by the wall clock still counts the whole grace period', async () => {
    // Node's timers keep their own clock: the timer may fire when Date.now() says 2,999 ms have passed
    const clock = manualClock();
    let behind = 0;
    const end = new TurnEnd({ info: () => undefined, warn: () => undefined }, cancelGraceMs, clock.schedule, () => clock.now() - behind);
    const turn = watch(end.run(deferred<unknown>().promise));
    end.cancel();
    behind = 1;
    clock.advance(cancelGraceMs);
    await flush();
    assert.deepEqual(turn.outcome, { kind: 'abandoned', afterMs: cancelGraceMs }, 'the notice says the agent did not confirm within the grace period');
  });

  it('a second Stop during the grace period ends the turn at once', async () => {
    const { clock, end } = setup();
    const turn = watch(end.run(deferred<unknown>().promise));
    assert.equal(end.cancel(), 'waiting');
    clock.advance(200);
    assert.equal(end.cancel(), 'ended');
    await flush();
    assert.deepEqual(turn.outcome, { kind: 'abandoned', afterMs: 200 });
    assert.equal(clock.pending(), 0, 'the grace timer is released');
  });

  it('without Stop nothing times out: a long turn is not abandoned', async () => {
    const { clock, end } = setup();
    const turn = watch(end.run(deferred<unknown>().promise));
    clock.advance(10 * cancelGraceMs);
    await flush();
    assert.equal(turn.outcome, undefined);
  });

  it('a late answer to the abandoned prompt is ignored and logged; it does not end the newer turn', async () => {
    const { clock, end, logs } = setup();
    const old = deferred<{ stopReason: string }>();
    const first = watch(end.run(old.promise));
    end.cancel();
    end.cancel();
    await flush();
    assert.equal(first.outcome?.kind, 'abandoned');
    const next = deferred<{ stopReason: string }>();
    const second = watch(end.run(next.promise));
    old.resolve({ stopReason: 'cancelled' });
    await flush();
    assert.equal(second.outcome, undefined, 'the newer turn still runs');
    assert.ok(logs.some((l) => l === 'warn ignored the late answer to the abandoned session/prompt: {"stopReason":"cancelled"}'), logs.join('\n'));
    // a Stop now concerns the newer turn only
    assert.equal(end.cancel(), 'waiting');
    clock.advance(cancelGraceMs);
    await flush();
    assert.equal((second.outcome as TurnOutcome<unknown> | undefined)?.kind, 'abandoned');
  });

  it('a late failure of the abandoned prompt is logged, not thrown', async () => {
    const { end, logs } = setup();
    const old = deferred<unknown>();
    const first = watch(end.run(old.promise));
    end.cancel();
    end.cancel();
    old.reject(new Error('boom'));
    await flush();
    assert.equal(first.error, undefined);
    assert.ok(logs.includes('info the abandoned session/prompt failed late: boom'), logs.join('\n'));
  });

  it('a failure before the abandonment rejects as before', async () => {
    const { end } = setup();
    const answer = deferred<unknown>();
    const turn = watch(end.run(answer.promise));
    end.cancel();
    answer.reject(new Error('agent error'));
    await flush();
    assert.match(String(turn.error), /agent error/);
  });

  it('ends the abandoned turn in the thread: tool calls cancelled, a notice, idle', async () => {
    const { end } = setup();
    const thread = new AcpThread('s1');
    thread.setStatus('working');
    const turn = watch(end.run(deferred<unknown>().promise));
    thread.handleSessionUpdate(toolCall('t1', 'in_progress'));
    end.cancel();
    thread.cancelUnfinishedToolCalls();
    thread.handleSessionUpdate(toolCall('t2', 'in_progress')); // the agent goes on regardless
    end.cancel();
    await flush();
    assert.equal(turn.outcome?.kind, 'abandoned');
    end.endAbandoned(thread, 'Stubborn', turn.outcome?.kind === 'abandoned' ? turn.outcome.afterMs : -1);
    assert.deepEqual(thread.entries.filter((e): e is ToolCallEntry => e.kind === 'toolCall').map((e) => e.status), ['cancelled', 'cancelled']);
    const notice = entryOf(thread.entries.at(-1), 'notice');
    assert.equal(notice.kind, 'notice');
    assert.match(notice.text, /without waiting for Stubborn to confirm the cancel/);
    assert.equal(thread.status, 'idle');
  });

  it('the notice after the grace period says the agent did not confirm within 3 s', async () => {
    const { clock, end } = setup();
    const thread = new AcpThread('s1');
    const turn = watch(end.run(deferred<unknown>().promise));
    end.cancel();
    clock.advance(cancelGraceMs);
    await flush();
    end.endAbandoned(thread, 'Stubborn', turn.outcome?.kind === 'abandoned' ? turn.outcome.afterMs : -1);
    assert.match(entryOf(thread.entries.at(-1), 'notice').text, /^Stubborn did not confirm the cancel within 3 s\./);
  });

  it('late updates of the abandoned turn are dropped until the next prompt; then the new turn shows', async () => {
    const { end } = setup();
    const thread = new AcpThread('s1');
    const apply = (u: SessionUpdate) => { if (!end.dropsUpdate(u)) thread.handleSessionUpdate(u); };
    const turn = watch(end.run(deferred<unknown>().promise));
    apply(toolCall('old', 'in_progress'));
    end.cancel();
    thread.cancelUnfinishedToolCalls();
    end.cancel();
    await flush();
    end.endAbandoned(thread, 'Stubborn', 0);
    assert.equal(turn.outcome?.kind, 'abandoned');
    const before = thread.entries.length;
    apply(chunk('late text'));
    apply({ sessionUpdate: 'session_info_update', title: 'Still named' });
    assert.equal(thread.entries.length, before, 'late text of the abandoned turn is not shown');
    assert.equal(thread.title, 'Still named', 'session-level updates pass');
    // the next turn: its own content shows, the old turn's tool call keeps its cancelled status
    watch(end.run(deferred<unknown>().promise));
    apply(chunk('new answer'));
    apply({ sessionUpdate: 'tool_call_update', toolCallId: 'old', status: 'completed' });
    assert.equal(thread.entries.at(-1)?.kind, 'agent');
    assert.equal(findEntry(thread.entries, 'toolCall').status, 'cancelled');
  });
});
