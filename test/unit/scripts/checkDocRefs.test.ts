import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// scripts/checkDocRefs.mjs (docs/architecture.md, "How it is kept so"), run as `npm test` runs it, over
// test/fixtures/docRefs: a small repository whose dead references say "dead" where they stand.

const repo = path.resolve(__dirname, '../../../..');
const script = path.join(repo, 'scripts', 'checkDocRefs.mjs');
const fixture = path.join(repo, 'test', 'fixtures', 'docRefs');

function check(root: string): { lines: string[]; summary: string; status: number | null } {
  const r = spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8' });
  assert.equal(r.stderr, '');
  const out = r.stdout.trimEnd().split('\n');
  return { lines: out.slice(0, -1), summary: out[out.length - 1], status: r.status };
}

describe('scripts / checkDocRefs', function () {
  this.timeout(20_000);

  it('reports every dead reference of the fixture as file:line, and nothing else', () => {
    const { lines, summary, status } = check(fixture);
    assert.deepEqual(lines, [
      'README.md:3: dead reference docs/old.md: no such file or folder',
      'README.md:3: dead reference docs/shot.png: no such file or folder',
      'docs/guide.md:7: dead reference #gone-section: docs/guide.md has no heading with the anchor #gone-section',
      'docs/guide.md:7: dead reference missing.md: no such file or folder',
      'docs/guide.md:8: dead reference ../src/gone.ts: no such file or folder',
      'docs/guide.md:14: dead reference src/sub/gone.ts: no such file or folder',
      'docs/guide.md:14: dead reference src/gone2.ts: no such file or folder',
      'docs/guide.md:14: dead reference src/<folder>/gone3.ts: no file or folder matches',
      'docs/guide.md:15: dead reference gone4.ts: no file of that name',
      'docs/guide.md:26: dead reference docs/guide.md#notes-2: docs/guide.md has no heading with the anchor #notes-2',
      'docs/guide.md:26: dead reference docs/other.md "Bottom": docs/other.md has no heading "Bottom"',
      'docs/other.md:3: dead reference guide.md#old-part: docs/guide.md has no heading with the anchor #old-part',
      'scripts/tool.sh:2: dead reference scripts/gone.sh: no such file or folder',
      'src/live.ts:3: dead reference docs/guide.md "Gone section": docs/guide.md has no heading "Gone section"',
      'src/live.ts:6: dead reference docs/guide.md "Live section that is gone": docs/guide.md has no heading "Live section that is gone"',
      'src/live.ts:9: dead reference src/gone5.ts: no such file or folder',
      'src/live.ts:10: dead reference gone6.ts: no file of that name',
      'src/live.ts:14: dead reference docs/guide.md#gone: docs/guide.md has no heading with the anchor #gone',
      'test/workspaceHelper.ts:2: dead reference test/gone/: no such file or folder',
    ]);
    assert.match(summary, /^checkDocRefs: \d+ references in 7 files, 19 dead \(\d+ ms\)$/, 'CHANGELOG.md is not scanned, nor a test\'s strings');
    assert.equal(status, 1);
  });

  it('passes once the dead references are gone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-docrefs-'));
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.mkdirSync(path.join(dir, 'src'));
      fs.writeFileSync(path.join(dir, 'docs', 'map.md'), '# The map\n\n## Layers\n\nSee [the code](../src/a.ts) and `src/a.ts`.\n');
      fs.writeFileSync(path.join(dir, 'src', 'a.ts'), '// docs/map.md ("Layers"), docs/map.md#layers, docs/map.md, "The map"\nexport const a = 1;\n');
      const { lines, summary, status } = check(dir);
      assert.deepEqual(lines, []);
      assert.match(summary, /^checkDocRefs: 5 references in 2 files, 0 dead \(\d+ ms\)$/);
      assert.equal(status, 0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
