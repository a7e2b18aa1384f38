import * as assert from 'node:assert/strict';
import { NotificationLimit } from '../../../src/shared/rateLimit';

describe('notification rate limit', () => {
  it('allows one per key per gap and a few per window, then says when there is room again', () => {
    const limit = new NotificationLimit(30_000, 60_000, 3);
    assert.equal(limit.take('a', 0), true);
    assert.equal(limit.take('a', 10_000), false, 'the same session again too soon');
    assert.equal(limit.take('b', 10_000), true);
    assert.equal(limit.take('c', 20_000), true);
    assert.equal(limit.take('d', 21_000), false, 'three a minute');
    assert.equal(limit.nextFree(21_000), 39_000);
    assert.equal(limit.take('d', 60_000), true, 'the first one left the window');
    assert.equal(limit.take('a', 61_000), false, 'the window is full again');
    assert.equal(limit.nextFree(61_000), 9_000);
  });
});
