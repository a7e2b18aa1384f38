import * as assert from 'node:assert/strict';
import { diffToView, maxDiffChars } from '../../../src/thread/view/diffHunks';
import { editRows, hunkRows } from '../../../webview/lib/diffLines';
import { usageLevel } from '../../../webview/lib/usageLevel';

/** The rows the chat shows for an edit (hunks from the host, rows in the webview). */
function inlineDiff(oldText: string | null, newText: string, options: { maxRows?: number } = {}) {
  return editRows(diffToView({ path: 'a.txt', oldText, newText }), options.maxRows);
}

describe('inline diff rows (hunks made on the host)', () => {
  it('numbers context, removed and added lines from the hunk starts', () => {
    const d = inlineDiff('a\nb\nc\n', 'a\nB\nc\nd\n');
    assert.equal(d.added, 2);
    assert.equal(d.removed, 1);
    assert.deepEqual(d.rows, [
      { kind: 'hunk', text: '@@ -1,3 +1,4 @@' },
      { kind: 'context', oldLine: 1, newLine: 1, text: 'a' },
      { kind: 'removed', oldLine: 2, text: 'b' },
      { kind: 'added', newLine: 2, text: 'B' },
      { kind: 'context', oldLine: 3, newLine: 3, text: 'c' },
      { kind: 'added', newLine: 4, text: 'd' },
    ]);
  });

  it('shows a new file as added lines only', () => {
    const d = inlineDiff(null, '# Changes\n\n- one\n');
    assert.equal(d.removed, 0);
    assert.deepEqual(d.rows.filter((r) => r.kind !== 'hunk').map((r) => r.kind === 'added' && r.newLine), [1, 2, 3]);
  });

  it('cuts long diffs to the row limit and refuses huge texts', () => {
    const big = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const d = inlineDiff('', big, { maxRows: 10 });
    assert.equal(d.rows.length, 10);
    assert.equal(d.omittedRows, 41);
    assert.equal(inlineDiff('a', 'b'.repeat(maxDiffChars)).tooLarge, true);
    assert.deepEqual(inlineDiff('same\n', 'same\n').rows, []);
  });

  it('diffs an edit once, however often its tool call is shown again', () => {
    const edit = { path: 'a.txt', oldText: 'a\n', newText: 'b\n' };
    const first = diffToView(edit);
    assert.equal(diffToView(edit), first);
    assert.equal(first.added, false);
    assert.equal(diffToView({ path: 'n.txt', newText: 'x\n' }).added, true);
  });
});

describe('rows of parsed hunks (a raw output\'s unified diff)', () => {
  it('numbers the lines from the hunk starts and skips "no newline" markers', () => {
    const d = hunkRows([{ oldStart: 10, oldLines: 2, newStart: 10, newLines: 2, lines: [' a', '-b', '+c', '\\ No newline at end of file'] }]);
    assert.deepEqual(d.rows, [
      { kind: 'hunk', text: '@@ -10,2 +10,2 @@' },
      { kind: 'context', oldLine: 10, newLine: 10, text: 'a' },
      { kind: 'removed', oldLine: 11, text: 'b' },
      { kind: 'added', newLine: 11, text: 'c' },
    ]);
    assert.deepEqual([d.added, d.removed, d.omittedRows], [1, 1, 0]);
  });
});

describe('usage meter bands', () => {
  it('follows the RFD thresholds', () => {
    assert.equal(usageLevel(100, 200).level, 'normal');
    assert.equal(usageLevel(150, 200).level, 'filling');
    assert.equal(usageLevel(150, 200).message, 'Context filling up');
    assert.equal(usageLevel(180, 200).message, 'Start new session or summarize');
    assert.equal(usageLevel(190, 200).level, 'summarize');
    assert.equal(usageLevel(195, 200).message, 'Next prompt may fail');
    assert.equal(usageLevel(5, 0).level, 'normal');
  });
});
