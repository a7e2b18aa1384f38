import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { choose, useTestClient } from './acpTestClient';

// The three agents of test/ui/sessionHome.ui.mjs (scenarios homeDone, homeFail, homeWaiting) and the
// `waitForFile` step that lets a test decide when a turn may finish.

describe('demoAgent / the home scenarios', () => {
  const open = useTestClient();
  let cwd: string;
  beforeEach(() => { cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-home-')); });
  afterEach(() => fs.rmSync(cwd, { recursive: true, force: true }));

  it('homeDone waits for the go file, then writes two files through the client and finishes', async () => {
    const go = path.join(cwd, 'go');
    const c = open('homeDone', { env: { HOME_GO_FILE: go } });
    const { sessionId } = await c.start(cwd);
    let stopped = false;
    const turn = c.prompt(sessionId, 'Write the notes').then((r) => { stopped = true; return r; });
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(stopped, false, 'the turn waits for the go file');
    assert.equal(c.updatesOf('plan', sessionId)[0]?.entries[0]?.status, 'in_progress', 'with a plan step in progress');
    fs.writeFileSync(go, '');
    assert.equal(await turn, 'end_turn');
    assert.deepEqual(c.requestsOf('fs/write_text_file').map((p) => path.relative(cwd, (p as { path: string }).path)), [path.join('src', 'app.ts'), path.join('notes', 'release.md')]);
    assert.match(c.text(), /Changed two files\./);
  });

  it('homeDone switches its model and mode, and echoes them with the prompt as sent', async () => {
    const c = open('homeDone');
    const { sessionId, configOptions } = await c.start(cwd);
    assert.deepEqual(configOptions?.map((o) => [o.id, o.category, o.currentValue]), [['model', 'model', 'fast'], ['mode', 'mode', 'ask']]);
    await c.prompt(sessionId, '/settings');
    assert.match(c.text(), /Now smart in code mode\./);
    await c.prompt(sessionId, 'Be brief. /which');
    assert.match(c.text(), /Model smart, mode code\. You sent: Be brief\. \/which/);
  });

  it('homeFail streams part of an answer, then fails the prompt with its explanation', async () => {
    const c = open('homeFail');
    const { sessionId } = await c.start(cwd);
    await assert.rejects(c.prompt(sessionId, 'Check the deployment'), /Internal error/);
    assert.match(c.text(), /zeppelin pipeline/);
  });

  it('homeWaiting asks permission for its tool call and says what it did with the answer', async () => {
    const c = open('homeWaiting', { permission: choose('reject') });
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, 'Migrate');
    assert.equal(c.requestsOf('session/request_permission').length, 1);
    assert.match(c.text(), /Migration not run\./);
  });

  it('waitForFile is interrupted by a cancel', async () => {
    const c = open('homeDone');
    const { sessionId } = await c.start(cwd);
    // the go file never comes: the step's default timeout is long, so cancel instead and check the turn ends
    const turn = c.prompt(sessionId, 'Write the notes');
    await new Promise((r) => setTimeout(r, 200));
    await c.cancel(sessionId);
    assert.ok(['cancelled', 'end_turn'].includes(await turn), 'cancellation interrupts the wait');
  });
});
