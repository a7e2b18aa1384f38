import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { additionalDirectoriesFor } from '../../../src/host/files/additionalDirectories';

describe('additionalDirectories of a session', () => {
  const exists = (d: string) => !d.includes('missing');

  it('sends the other workspace folders, then the setting, without cwd or duplicates', () => {
    const r = additionalDirectoriesFor('/w/a', ['/w/a', '/w/b', '/w/c/'], ['/extra', '/w/b', '/extra/../extra'], exists, false);
    assert.deepEqual(r.directories, ['/w/b', '/w/c', '/extra']);
    assert.deepEqual(r.problems, []);
  });

  it('expands ~ and reports relative, missing and malformed entries instead of sending them', () => {
    const r = additionalDirectoriesFor('/w/a', [], ['~/notes', 'relative/dir', '/missing/dir', 42, ''], exists, false);
    assert.deepEqual(r.directories, [path.join(os.homedir(), 'notes')]);
    assert.equal(r.problems.length, 4);
    assert.match(r.problems.join('\n'), /'relative\/dir' is not an absolute path/);
    assert.match(r.problems.join('\n'), /'\/missing\/dir' does not exist/);
    assert.deepEqual(additionalDirectoriesFor('/w', [], 'not a list', exists, false).problems, ['switchboard.additionalDirectories must be a list of folder paths']);
  });

  it('compares paths case-insensitively where the platform does', () => {
    assert.deepEqual(additionalDirectoriesFor('/W/A', ['/w/a', '/w/B', '/W/b'], [], exists, true).directories, ['/w/B']);
    assert.deepEqual(additionalDirectoriesFor('/W/A', ['/w/a'], [], exists, false).directories, ['/w/a']);
  });
});
