import * as assert from 'node:assert/strict';
import { CoreLoader, whenIdle, type IdleOptions, type IdleTimers } from '../../src/coreLoader';

/**
 * A manual clock: `advance(ms)` runs the timers that fall due, in order; `next()` runs only the earliest one;
 * `busy(ms)` is a task that holds the loop (the clock moves, no timer runs).
 */
function fakeTimers(): IdleTimers & { advance(ms: number): void; next(): void; busy(ms: number): void; pending(): number } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  const earliest = () => [...timers].sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
  const runOne = ([id, t]: [number, { at: number; run: () => void }]) => {
    timers.delete(id);
    now = Math.max(now, t.at);
    t.run();
  };
  return {
    now: () => now,
    setTimeout: (run, ms) => { timers.set(++seq, { at: now + ms, run }); return seq; },
    clearTimeout: (h) => { timers.delete(h as number); },
    advance: (ms) => {
      const until = now + ms;
      for (let e = earliest(); e && e[1].at <= until; e = earliest()) runOne(e);
      now = Math.max(now, until);
    },
    next: () => { const e = earliest(); if (e) runOne(e); },
    busy: (ms) => { now += ms; },
    pending: () => timers.size,
  };
}

const options: IdleOptions = { afterMs: 300, stepMs: 50, lateMs: 25, quietMs: 200, maxMs: 5000 };

/** A loader over fake steps that records what ran. */
function fakeLoader(t: IdleTimers, fail: { require?: boolean; activate?: boolean } = {}) {
  const calls: string[] = [];
  const loader = new CoreLoader<{ name: string }, { api: string }>({
    require: () => {
      calls.push('require');
      if (fail.require) throw new Error('no bundle');
      return { name: 'core' };
    },
    activate: (module, how) => {
      calls.push(`activate ${how.replace(/ \(its bundle took \d+ ms\)$/, '')}`);
      if (fail.activate) throw new Error('broken');
      return { api: module.name };
    },
    failed: (error) => { calls.push(`failed ${error instanceof Error ? error.message : String(error)}`); },
  }, t);
  return { loader, calls };
}

describe('whenIdle', () => {
  it('runs once the loop has been on time for quietMs, not before afterMs', () => {
    const t = fakeTimers();
    let ran = 0;
    whenIdle(() => { ran++; }, options, t);
    t.advance(299);
    assert.equal(ran, 0);
    t.advance(150);
    assert.equal(ran, 0, 'on time for 150 ms only');
    t.advance(100);
    assert.equal(ran, 1, 'on time for 200 ms after 300 ms');
    t.advance(10_000);
    assert.equal(ran, 1);
    assert.equal(t.pending(), 0, 'no timer left');
  });

  it('waits while the loop is busy (samples come late), and runs by maxMs in any case', () => {
    const t = fakeTimers();
    let ranAt = -1;
    whenIdle(() => { ranAt = t.now(); }, options, t);
    // another extension's work: a 100 ms task every 150 ms
    while (ranAt < 0 && t.now() < 10_000) { t.advance(50); t.busy(100); }
    assert.ok(ranAt >= 5000 && ranAt < 5200, `ran at ${ranAt} ms: at maxMs while the loop stays busy`);
  });

  it('a busy stretch restarts the quiet time', () => {
    const t = fakeTimers();
    let ranAt = -1;
    whenIdle(() => { ranAt = t.now(); }, options, t);
    t.advance(400);
    t.busy(100); // one long task at 400 ms
    t.advance(1000);
    assert.ok(ranAt >= 700 && ranAt <= 800, `ran at ${ranAt} ms: 200 ms of quiet after the task that ended at 500 ms`);
  });

  it('cancelled, it never runs', () => {
    const t = fakeTimers();
    let ran = 0;
    const cancel = whenIdle(() => { ran++; }, options, t);
    t.advance(350);
    cancel();
    t.advance(10_000);
    assert.equal(ran, 0);
    assert.equal(t.pending(), 0);
  });
});

describe('CoreLoader', () => {
  it('loads at idle after activation, the bundle and the services in two tasks', () => {
    const t = fakeTimers();
    const { loader, calls } = fakeLoader(t);
    loader.loadAtIdle(options);
    t.advance(499);
    assert.deepEqual(calls, []);
    t.next();
    assert.deepEqual(calls, ['require'], 'at 500 ms: the bundle first, the services in a task of their own');
    assert.equal(loader.api, undefined);
    t.next();
    assert.deepEqual(calls, ['require', 'activate at idle after activation']);
    assert.deepEqual(loader.api, { api: 'core' });
    assert.equal(t.pending(), 0);
  });

  it('a use before idle loads the core at once, and the idle load does nothing more', () => {
    const t = fakeTimers();
    const { loader, calls } = fakeLoader(t);
    loader.loadAtIdle(options);
    t.advance(100);
    assert.deepEqual(loader.load('for the command switchboard.newSession'), { api: 'core' });
    assert.deepEqual(calls, ['require', 'activate for the command switchboard.newSession']);
    t.advance(10_000);
    assert.deepEqual(calls, ['require', 'activate for the command switchboard.newSession'], 'loaded once');
    assert.equal(t.pending(), 0, 'the wait for idle was cancelled');
  });

  it('a use between the two steps builds the services at once; the second step does nothing more', () => {
    const t = fakeTimers();
    const { loader, calls } = fakeLoader(t);
    loader.loadAtIdle(options);
    t.advance(499);
    t.next();
    assert.deepEqual(calls, ['require']);
    loader.load('for the API');
    t.advance(1000);
    assert.deepEqual(calls, ['require', 'activate for the API'], 'the bundle is not loaded twice, the services built once');
  });

  it('a failure at idle is reported once and not thrown; the next use tries again and throws', () => {
    for (const fail of [{ require: true }, { activate: true }]) {
      const t = fakeTimers();
      const { loader, calls } = fakeLoader(t, fail);
      loader.loadAtIdle(options);
      assert.doesNotThrow(() => t.advance(10_000));
      const failed = fail.require ? 'failed no bundle' : 'failed broken';
      assert.deepEqual(calls.filter((c) => c.startsWith('failed')), [failed], `reported once (${JSON.stringify(fail)})`);
      assert.equal(loader.api, undefined);
      calls.length = 0;
      assert.throws(() => loader.load('for the command switchboard.newSession'), fail.require ? /no bundle/ : /broken/);
      assert.deepEqual(calls.filter((c) => c.startsWith('failed')), [failed], 'the use that failed reports it');
      assert.equal(t.pending(), 0);
    }
  });

  it('loadAtIdle after a load does nothing; dispose cancels the wait', () => {
    const t = fakeTimers();
    const { loader, calls } = fakeLoader(t);
    loader.load('for the Sessions view');
    loader.loadAtIdle(options);
    assert.equal(t.pending(), 0);
    const other = fakeLoader(t);
    other.loader.loadAtIdle(options);
    other.loader.dispose();
    t.advance(10_000);
    assert.deepEqual(other.calls, []);
    assert.deepEqual(calls, ['require', 'activate for the Sessions view']);
  });
});
