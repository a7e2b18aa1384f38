import * as assert from 'node:assert/strict';
import { preselectedKey } from '../../../src/workbench/sessions/recentChats';

describe('recentChats: the session Switch Session preselects', () => {
  it('is the session shown before the current one, not the current one', () => {
    assert.equal(preselectedKey(['b', 'a', 'c'], { current: 'b', recent: ['b', 'a'] }), 'a');
    assert.equal(preselectedKey(['b', 'a', 'c'], { current: 'b', recent: ['b', 'c', 'a'] }), 'c');
  });
  it('is the first other row when no other session was shown (or the one shown is gone)', () => {
    assert.equal(preselectedKey(['b', 'a', 'c'], { current: 'b', recent: ['b'] }), 'a');
    assert.equal(preselectedKey(['b', 'a'], { current: 'b', recent: ['b', 'gone'] }), 'a');
    assert.equal(preselectedKey(['a', 'c'], { current: undefined, recent: [] }), 'a');
  });
  it('is none when the current session is the only row', () => {
    assert.equal(preselectedKey(['b'], { current: 'b', recent: ['b'] }), undefined);
    assert.equal(preselectedKey([], { current: undefined, recent: [] }), undefined);
  });
});
