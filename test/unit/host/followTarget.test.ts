import * as assert from 'node:assert/strict';
import { changedLines, followTarget, lineCount, locateEdit, mergeRanges } from '../../../src/host/follow/followTarget';
import type { FollowableToolCall } from '../../../src/host/follow/followTarget';

const call = (fields: Partial<FollowableToolCall>): FollowableToolCall => ({ toolCallId: 't1', toolKind: 'read', status: 'pending', locations: [], content: [], ...fields });

describe('followTarget', () => {
  it('follows the last absolute location, with the 1-based ACP line made 0-based', () => {
    const t = followTarget(call({ locations: [{ path: '/p/a.ts', line: 3 }, { path: '/p/b.ts', line: 42 }] }));
    assert.equal(t?.path, '/p/b.ts');
    assert.equal(t?.line, 41);
    assert.equal(t?.isEdit, false);
    assert.equal(followTarget(call({ locations: [{ path: '/p/a.ts', line: 1 }] }))?.line, 0);
    assert.equal(followTarget(call({ locations: [{ path: '/p/a.ts' }] }))?.line, undefined);
  });

  it('names no target without an absolute path', () => {
    assert.equal(followTarget(call({})), undefined);
    assert.equal(followTarget(call({ locations: [{ path: 'relative/a.ts', line: 2 }] })), undefined);
  });

  it('an edit carries its diff for that path; diff content alone is enough', () => {
    const diff = { type: 'diff' as const, path: '/p/a.ts', oldText: 'a\n', newText: 'b\n' };
    const t = followTarget(call({ toolKind: 'edit', locations: [{ path: '/p/a.ts' }], content: [diff] }));
    assert.deepEqual(t?.change, { oldText: 'a\n', newText: 'b\n' });
    assert.equal(t?.isEdit, true);
    const onlyDiff = followTarget(call({ toolKind: 'other', content: [{ ...diff, oldText: null }] }));
    assert.equal(onlyDiff?.path, '/p/a.ts');
    assert.deepEqual(onlyDiff?.change, { oldText: null, newText: 'b\n' });
    assert.equal(onlyDiff?.isEdit, true);
    assert.equal(followTarget(call({ toolKind: 'edit', locations: [{ path: '/p/a.ts' }] }))?.isEdit, true);
  });

  it('the key changes with the location or the diff, and when an edit completes; not with other updates', () => {
    const base = call({ locations: [{ path: '/p/a.ts', line: 3 }] });
    const key = followTarget(base)?.key;
    assert.equal(followTarget({ ...base, status: 'in_progress' })?.key, key, 'a read changing status is the same target');
    assert.notEqual(followTarget({ ...base, locations: [{ path: '/p/a.ts', line: 4 }] })?.key, key);
    const edit = call({ toolKind: 'edit', locations: [{ path: '/p/a.ts' }], content: [{ type: 'diff', path: '/p/a.ts', oldText: 'x', newText: 'y' }] });
    const editKey = followTarget(edit)?.key;
    assert.notEqual(followTarget({ ...edit, content: [{ type: 'diff', path: '/p/a.ts', oldText: 'x', newText: 'z' }] })?.key, editKey);
    assert.notEqual(followTarget({ ...edit, status: 'completed' })?.key, editKey);
    assert.equal(followTarget({ ...edit, status: 'failed' })?.key, editKey);
  });
});

describe('changedLines and locateEdit', () => {
  it('counts lines like the line diff', () => {
    assert.deepEqual(['', 'a', 'a\n', 'a\nb', 'a\nb\n', '\n\n'].map(lineCount), [0, 1, 1, 2, 2, 2]);
  });

  it('finds each changed hunk of the new text', () => {
    const old = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].join('\n') + '\n';
    const neu = ['a', 'B', 'c', 'd', 'e', 'F1', 'F2', 'g'].join('\n') + '\n';
    assert.deepEqual(changedLines(old, neu), [{ start: 1, end: 1 }, { start: 5, end: 6 }]);
  });

  it('a new file is changed everywhere; a deletion marks the line where it happened; no change is nothing', () => {
    assert.deepEqual(changedLines(null, 'x\ny\n'), [{ start: 0, end: 1 }]);
    assert.deepEqual(changedLines('a\nb\nc\n', 'a\nc\n'), [{ start: 1, end: 1 }]);
    assert.deepEqual(changedLines('a\nb\n', 'a\nb\n'), []);
  });

  it('locates a whole-file edit, a snippet edit nearest to the hint, and a pending edit by its old text', () => {
    const doc = 'one\ntwo\nTHREE\nfour\n';
    assert.deepEqual(locateEdit(doc, { oldText: 'one\ntwo\nthree\nfour\n', newText: doc }), [{ start: 2, end: 2 }]);
    const repeated = 'x\nfoo()\ny\nz\nfoo()\nw\n';
    assert.deepEqual(locateEdit(repeated, { oldText: 'bar()', newText: 'foo()' }, 4), [{ start: 4, end: 4 }]);
    assert.deepEqual(locateEdit(repeated, { oldText: 'bar()', newText: 'foo()' }), [{ start: 1, end: 1 }]);
    assert.deepEqual(locateEdit('a\nold1\nold2\nb\n', { oldText: 'old1\nold2', newText: 'new' }), [{ start: 1, end: 2 }]);
    assert.deepEqual(locateEdit('nothing here\n', { oldText: 'abc', newText: 'def' }), []);
  });

  it('a snippet edit highlights only its changed lines, shifted to where it is', () => {
    const doc = 'head\nfunction f() {\n  return 2;\n}\ntail\n';
    const ranges = locateEdit(doc, { oldText: 'function f() {\n  return 1;\n}', newText: 'function f() {\n  return 2;\n}' });
    assert.deepEqual(ranges, [{ start: 2, end: 2 }]);
  });

  it('merges overlapping and touching ranges', () => {
    assert.deepEqual(mergeRanges([{ start: 5, end: 6 }, { start: 0, end: 1 }, { start: 2, end: 2 }, { start: 6, end: 9 }]), [{ start: 0, end: 2 }, { start: 5, end: 9 }]);
  });
});
