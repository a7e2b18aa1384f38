import * as assert from 'node:assert/strict';
import { ReviewChangedFileCommand, ReviewChangedFilesCommand } from '../../../src/shared/chatProtocol';
import { parseParams } from '../../../src/chatHost/ipcSchemas';
import { chatActions } from '../../../webview/actions';

describe('changed-files bar commands: validation (src/chatHost/changedFilesSchemas)', () => {
  it('accepts Keep, Undo and Open Diff on a path, and Keep All / Undo All', () => {
    assert.deepEqual(parseParams(ReviewChangedFileCommand.method, { action: 'undo', path: '/ws/a.ts' }), { ok: true, params: { action: 'undo', path: '/ws/a.ts' } });
    assert.deepEqual(parseParams(ReviewChangedFilesCommand.method, { action: 'keep' }), { ok: true, params: { action: 'keep' } });
  });

  it('rejects other actions, extra fields, empty or huge paths', () => {
    for (const bad of [{ action: 'delete', path: '/a' }, { action: 'keep', path: '' }, { action: 'keep', path: 'x'.repeat(5000) }, { action: 'keep', path: '/a', extra: 1 }, { action: 'keep' }]) {
      assert.equal(parseParams(ReviewChangedFileCommand.method, bad).ok, false, JSON.stringify(bad).slice(0, 60));
    }
    assert.equal(parseParams(ReviewChangedFilesCommand.method, { action: 'diff' }).ok, false, 'there is no Open Diff for all files');
  });

  it('the webview posts them through ChatActions', () => {
    const posted: Array<{ method: string; params: unknown }> = [];
    const a = chatActions({ post: (type, params) => { posted.push({ method: type.method, params }); }, getState: () => undefined, setState: () => {} });
    a.changedFile('diff', '/ws/a.ts');
    a.changedFilesAll('undo');
    assert.deepEqual(posted, [
      { method: ReviewChangedFileCommand.method, params: { action: 'diff', path: '/ws/a.ts' } },
      { method: ReviewChangedFilesCommand.method, params: { action: 'undo' } },
    ]);
  });
});
