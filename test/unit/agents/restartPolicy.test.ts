import * as assert from 'node:assert/strict';
import { RestartPolicy } from '../../../src/agents/restartPolicy';

describe('RestartPolicy', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000_000));

  it('allows 3 restarts within 3 minutes, then stops with a reason', () => {
    const policy = new RestartPolicy({ now: clock });
    for (let attempt = 1; attempt <= 3; attempt++) {
      policy.record();
      assert.deepEqual(policy.shouldRestart(), { restart: true, attempt });
      now += 10_000;
    }
    policy.record();
    const decision = policy.shouldRestart();
    assert.equal(decision.restart, false);
    assert.ok(!decision.restart && /crashed 4 times within 3 minutes/.test(decision.reason), JSON.stringify(decision));
  });

  it('forgets crashes older than the window', () => {
    const policy = new RestartPolicy({ now: clock, maxRestarts: 2, windowMs: 60_000 });
    policy.record();
    policy.record();
    now += 60_001;
    policy.record();
    assert.deepEqual(policy.shouldRestart(), { restart: true, attempt: 1 });
    assert.equal(policy.crashCount, 1);
  });

  it('reset() starts over', () => {
    const policy = new RestartPolicy({ now: clock, maxRestarts: 0 });
    policy.record();
    assert.equal(policy.shouldRestart().restart, false);
    policy.reset();
    assert.equal(policy.crashCount, 0);
  });
});
