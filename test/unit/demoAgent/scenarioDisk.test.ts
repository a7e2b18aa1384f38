import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useTestClient } from './acpTestClient';

// The `disk` step (checkpoints.json): the agent writes, renames and deletes files from its own process.

describe('demoAgent / disk steps', () => {
  const open = useTestClient();
  let cwd: string;
  beforeEach(() => { cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-disk-')); });
  afterEach(() => fs.rmSync(cwd, { recursive: true, force: true }));

  it('writes text and bytes, renames, deletes and creates folders, without asking the client', async () => {
    fs.mkdirSync(path.join(cwd, 'cp', 'src'), { recursive: true });
    fs.writeFileSync(path.join(cwd, 'cp', 'src', 'b.ts'), 'b');
    fs.writeFileSync(path.join(cwd, 'cp', 'c.txt'), 'c');
    const c = open('checkpoints', { env: { CP: 'cp' }, files: { [path.join(cwd, 'cp', 'main.txt')]: 'a' }, terminal: { exitCode: 0, exitAfterMs: 0 } });
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, '/t1');
    assert.deepEqual([...fs.readFileSync(path.join(cwd, 'cp', 'data.bin'))], [0, 1, 2, 255, 0, 13, 10, 0]);
    await c.prompt(sessionId, '/t2');
    assert.ok(!fs.existsSync(path.join(cwd, 'cp', 'src', 'b.ts')) && fs.readFileSync(path.join(cwd, 'cp', 'src', 'renamed.ts'), 'utf8') === 'b');
    await c.prompt(sessionId, '/t3');
    assert.equal(fs.readFileSync(path.join(cwd, 'cp', 'deep', 'new', 'file.txt'), 'utf8'), 'deep\n');
    assert.ok(!fs.existsSync(path.join(cwd, 'cp', 'c.txt')));
    assert.equal(c.requestsOf('fs/write_text_file').length, 4, 'only the client writes went to the client');
  });
});
