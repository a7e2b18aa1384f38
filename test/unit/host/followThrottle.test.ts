import * as assert from 'node:assert/strict';
import { LatestWinsThrottle } from '../../../src/host/follow/followThrottle';
import type { ThrottleTimers } from '../../../src/host/follow/followThrottle';

/** Manual timers: `advance(ms)` runs what is due. */
function fakeTimers(): ThrottleTimers & { advance(ms: number): void; count(): number } {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    setTimeout: (run, ms) => { timers.set(++next, { at: now + ms, run }); return next; },
    clearTimeout: (h) => { timers.delete(h as number); },
    advance(ms) {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now) { timers.delete(id); t.run(); }
      }
    },
    count: () => timers.size,
  };
}

describe('LatestWinsThrottle', () => {
  it('delivers only the latest item of a burst, at the end of the window', () => {
    const t = fakeTimers();
    const got: string[] = [];
    const throttle = new LatestWinsThrottle<string>((s) => got.push(s), 150, t);
    for (const s of ['a', 'b', 'c', 'd']) { throttle.push(s); t.advance(20); }
    assert.deepEqual(got, []);
    assert.equal(throttle.isWaiting, true);
    t.advance(150);
    assert.deepEqual(got, ['d']);
    assert.equal(throttle.isWaiting, false);
    assert.equal(t.count(), 0, 'no timer left');
  });

  it('a continuous burst delivers at most one item per window, always the newest', () => {
    const t = fakeTimers();
    const got: number[] = [];
    const throttle = new LatestWinsThrottle<number>((n) => got.push(n), 150, t);
    for (let i = 1; i <= 20; i++) { throttle.push(i); t.advance(50); }
    t.advance(150);
    assert.deepEqual(got, [3, 6, 9, 12, 15, 18, 20]);
  });

  it('a single item comes after one window; clear drops what waits', () => {
    const t = fakeTimers();
    const got: string[] = [];
    const throttle = new LatestWinsThrottle<string>((s) => got.push(s), 150, t);
    throttle.push('x');
    t.advance(149);
    assert.deepEqual(got, []);
    t.advance(1);
    assert.deepEqual(got, ['x']);
    throttle.push('y');
    throttle.clear();
    t.advance(500);
    assert.deepEqual(got, ['x']);
    assert.equal(t.count(), 0);
  });

  it('works with the real timers', async () => {
    const got: string[] = [];
    const throttle = new LatestWinsThrottle<string>((s) => got.push(s), 30);
    throttle.push('a');
    throttle.push('b');
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(got, ['b']);
    throttle.dispose();
  });
});
