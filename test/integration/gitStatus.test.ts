/**
 * The Sessions view's git status of a folder (src/workbench/sessions/gitStatus.ts), read with the git CLI when the
 * Git extension is off: it tells the branch and the changed files, and it leaves the user's repository as it was,
 * byte for byte, even when git would refresh a stale index.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gitCliStatus } from '../../src/workbench/sessions/gitStatus';
import { gitState, userGit, writeTree } from '../unit/checkpoints/checkpointFixtures';

describe('the Sessions view\'s git status of a folder', () => {
  it('reads the branch and the changes without writing the user\'s index', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-git-status-'));
    try {
      writeTree(root, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
      userGit(root, 'init', '-q', '-b', 'main');
      userGit(root, 'add', '.');
      userGit(root, 'commit', '-q', '-m', 'initial');
      // the same bytes with a new modification time: the index entry is stale, and a plain `git status` rewrites it
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(path.join(root, 'a.txt'), later, later);
      writeTree(root, { 'b.txt': 'b, changed\n' });
      const before = gitState(root);
      const status = await gitCliStatus(root);
      assert.equal(status?.branch, 'main');
      assert.equal(status?.changes, 1, 'b.txt is the one change');
      assert.deepEqual(gitState(root), before, 'the index, HEAD and config are byte-identical');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
