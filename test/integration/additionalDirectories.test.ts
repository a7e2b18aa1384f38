/**
 * `additionalDirectories` (https://agentclientprotocol.com/protocol/session-setup): sent on session/new and
 * again on resume, only to an agent that advertises `sessionCapabilities.additionalDirectories`; the
 * session's file access is exactly cwd + those directories; the header gets the roots.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, setSetting, useScriptedAgent, workspaceRoot } from './helpers';

describe('additional directories (sessionCapabilities.additionalDirectories)', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let extra: string;
  let file: string;
  before(async () => {
    sb = await api();
    extra = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-extra-')));
    file = path.join(extra, 'shared.txt');
    fs.writeFileSync(file, 'from the extra folder\n');
    await setSetting('additionalDirectories', [extra, path.join(extra, 'missing-folder')]);
    // a read outside the session's roots is denied without asking: the test sees which side of the line a path is
    await setSetting('files.outsideRoots', 'deny');
  });
  after(async () => {
    await sb.stopAll();
    await setSetting('additionalDirectories', undefined);
    await setSetting('files.outsideRoots', undefined);
    fs.rmSync(extra, { recursive: true, force: true });
  });

  it('sends the folders of the setting to an agent with the capability (a missing folder is left out), and they become roots', async () => {
    const id = await sb.newSession(await useScriptedAgent('rootsEcho'));
    await sb.prompt(id, 'which roots?');
    assert.equal(agentText(sb, id).trim(), `roots: ${JSON.stringify([extra])}`);
    assert.deepEqual(sb.snapshot(id)?.state.roots, [workspaceRoot(), extra], 'the header shows cwd and the extra folder');
    await sb.prompt(id, `/read ${file}`);
    assert.match(agentText(sb, id), /\[read\] ok: from the extra folder/);
  });

  it('never sends the field to an agent without the capability, whose roots are then only its cwd', async () => {
    const id = await sb.newSession(await useScriptedAgent('rootsEchoNoCap'));
    await sb.prompt(id, 'which roots?');
    assert.equal(agentText(sb, id).trim(), 'roots: absent');
    assert.deepEqual(sb.snapshot(id)?.state.roots, [workspaceRoot()]);
    await sb.prompt(id, `/read ${file}`);
    assert.match(agentText(sb, id), /\[read\] error: .*-32003/);
  });

  it('sends the full list again on session/resume after a restart', async () => {
    const id = await sb.newSession(await useScriptedAgent('rootsEcho'));
    const pid = sb.session(id)?.host.pid;
    await sb.restartAgent(id);
    assert.notEqual(sb.session(id)?.host.pid, pid, 'a new agent process');
    await sb.prompt(id, 'and now?');
    assert.ok(agentText(sb, id).trimEnd().endsWith(`roots: ${JSON.stringify([extra])}`), agentText(sb, id));
  });
});
