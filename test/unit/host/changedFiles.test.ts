import * as assert from 'node:assert/strict';
import { blockCounts, changedFilesView, changeKind, lineCounts, maxCountedEdits } from '../../../src/host/files/changedFilesList';
import { diffColumnBeside } from '../../../src/host/files/diffColumn';
import { changedFilesSummary, changeTotals } from '../../../src/shared/changedFiles';
import type { ChangedFileView } from '../../../src/shared/changedFiles';

describe('the changed-files bar: what the host posts', () => {
  describe('lineCounts', () => {
    it('counts changed lines as removed plus added, like a unified diff', () => {
      assert.deepEqual(lineCounts('a\nb\nc\n', 'a\nB\nc\nd\n'), { added: 2, removed: 1 });
      assert.deepEqual(lineCounts('same\n', 'same\n'), { added: 0, removed: 0 });
    });

    it('a new file is all added, a deleted one all removed; a missing last line break counts as a line', () => {
      assert.deepEqual(lineCounts('', 'one\ntwo\nthree\n'), { added: 3, removed: 0 });
      assert.deepEqual(lineCounts('one\ntwo', ''), { added: 0, removed: 2 });
      assert.deepEqual(lineCounts('x\n', 'x'), { added: 1, removed: 1 });
    });

    it('past the edit limit it counts the one block between the common first and last lines (no slow diff)', () => {
      const n = 10 * maxCountedEdits;
      const before = ['head', ...Array.from({ length: n }, (_, i) => `old ${i}`), 'tail'].join('\n');
      const after = ['head', ...Array.from({ length: n + 1 }, (_, i) => `new ${i}`), 'tail'].join('\n');
      assert.deepEqual(lineCounts(before, after), { added: n + 1, removed: n });
    });

    it('blockCounts sets aside the common first and last lines', () => {
      assert.deepEqual(blockCounts('a\nb\nc\n', 'a\nX\nY\nc\n'), { added: 2, removed: 1 });
      assert.deepEqual(blockCounts('a\na\n', 'a\n'), { added: 0, removed: 1 });
      assert.deepEqual(blockCounts('', 'x'), { added: 1, removed: 0 });
    });
  });

  describe('changedFilesView', () => {
    const relative = (p: string) => p.startsWith('/ws/') ? p.slice(4) : p;

    it('one row per record, in order: name, folder relative to the workspace, created / modified / deleted, counts', () => {
      const rows = changedFilesView([
        { path: '/ws/src/app.ts', before: 'a\nb\n', after: 'a\nc\nd\n' },
        { path: '/ws/notes/todo.md', before: undefined, after: '# x\n\n- y\n' },
        { path: '/ws/README.md', before: 'r\n', after: undefined },
        { path: '/elsewhere/x.txt', before: 'x\n', after: 'y\n' },
      ], relative);
      assert.deepEqual(rows, [
        { path: '/ws/src/app.ts', name: 'app.ts', folder: 'src', change: 'modified', added: 2, removed: 1 },
        { path: '/ws/notes/todo.md', name: 'todo.md', folder: 'notes', change: 'created', added: 3, removed: 0 },
        { path: '/ws/README.md', name: 'README.md', folder: '', change: 'deleted', added: 0, removed: 1 },
        { path: '/elsewhere/x.txt', name: 'x.txt', folder: '/elsewhere', change: 'modified', added: 1, removed: 1 },
      ]);
    });

    it('a binary file has no counts; Windows paths split at backslashes', () => {
      const [bin] = changedFilesView([{ path: '/ws/img.png', before: '\u0000', after: '\u0001', binary: true }], relative);
      assert.deepEqual(bin, { path: '/ws/img.png', name: 'img.png', folder: '', change: 'modified' });
      const [win] = changedFilesView([{ path: 'C:\\ws\\src\\a.ts', before: 'a', after: 'b' }], (p) => p.replace('C:\\ws\\', ''));
      assert.equal(win.name, 'a.ts');
      assert.equal(win.folder, 'src');
    });

    it('changeKind: a file the agent created and then removed is deleted', () => {
      assert.equal(changeKind({ before: undefined, after: undefined }), 'deleted');
      assert.equal(changeKind({ before: '', after: '' }), 'modified');
    });
  });

  describe('the collapsed line', () => {
    const file = (added?: number, removed?: number): ChangedFileView => ({ path: '/p', name: 'p', folder: '', change: 'modified', ...(added === undefined ? {} : { added, removed }) });

    it('sums the counts over the files (files without counts add nothing)', () => {
      assert.deepEqual(changeTotals([file(2, 1), file(3, 0), file()]), { added: 5, removed: 1 });
      assert.equal(changedFilesSummary([file(2, 1), file(3, 0)]), '2 files changed +5 \u22121');
      assert.equal(changedFilesSummary([file(0, 4)]), '1 file changed +0 \u22124');
    });
  });

  describe('diffColumnBeside: diffs open beside the chat, never over it', () => {
    it('no chat shown: the default (the active group)', () => {
      assert.equal(diffColumnBeside(undefined, [1, 2], 1), undefined);
    });
    it('the user works in another group: that group', () => {
      assert.equal(diffColumnBeside(1, [1, 2, 3], 3), 3);
    });
    it('the chat is active: the nearest group to its right, else to its left, else a new group to its right', () => {
      assert.equal(diffColumnBeside(2, [1, 2, 3, 4], 2), 3);
      assert.equal(diffColumnBeside(2, [1, 2], 2), 1);
      assert.equal(diffColumnBeside(1, [1], 1), 2);
      assert.equal(diffColumnBeside(1, [1], undefined), 2);
    });
  });
});
