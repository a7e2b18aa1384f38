/**
 * A home for all sessions (docs/sessions.md, "A home for all sessions"), in the extension host against three scripted agents at once:
 * the live state of each (one waits for a permission, one fails, one finishes hidden with two file changes), the
 * badge count, Go to Next Session Waiting for You, the changed files under a session, the transcript search, and a
 * preset saved from one session that starts another with the same model, mode and prompt prefix
 * (session/set_config_option only for options the agent has; session/set_mode only for a legacy mode).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, clientCalls, setSetting, until, useScriptedAgent, workspaceRoot } from './helpers';

describe('the sessions\' home: states, search, changed files, presets', function () {
  this.timeout(90_000);
  let sb: SwitchboardTestApi;
  let root: string;
  const state = (id: string) => {
    const s = sb.sessionStates().find((x) => x.sessionId === id)?.state;
    return s && (s.reason ? `${s.kind}:${s.reason}` : s.kind);
  };
  before(async () => {
    sb = await api();
    root = workspaceRoot();
  });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => {
    await sb.stopAll();
    await setSetting('presets', undefined);
    for (const f of ['src/app.ts', 'notes/release.md']) fs.rmSync(path.join(root, f), { force: true });
  });

  it('shows each of three sessions in its own state, counts the one waiting, and goes to it', async () => {
    const go = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-home-')), 'go');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', 'app.ts'), "export const version = '1.0.0';\n");
    const done = await sb.newSession(await useScriptedAgent('homeDone', { HOME_GO_FILE: go }), { chat: true });
    const doneTurn = sb.prompt(done, 'Write the release notes');
    await until(() => state(done) === 'streaming' && sb.sessionStates().find((x) => x.sessionId === done)?.state.planStep === 'Write the release notes', 'the first one streams, on its plan step');

    const fail = await sb.newSession(await useScriptedAgent('homeFail'), { chat: true });
    await sb.prompt(fail, 'Check the deployment');
    assert.equal(state(fail), 'failed');
    assert.match(sb.sessionStates().find((x) => x.sessionId === fail)?.state.detail ?? '', /model backend is unavailable/);

    const waiting = await sb.newSession(await useScriptedAgent('homeWaiting'), { chat: true });
    const waitingTurn = sb.prompt(waiting, 'Migrate the database');
    await until(() => state(waiting) === 'waiting:permission', 'the third one waits for a permission');
    assert.equal(sb.sessionsBadge(), 1, 'the badge counts it');

    fs.writeFileSync(go, '');
    await doneTurn;
    assert.equal(state(done), 'unread', 'it finished while its chat was not on screen');
    await until(() => sb.sessionFiles(done).length === 2, 'its two changed files are listed under it').catch((e: unknown) => { throw new Error(`${String(e)}: ${JSON.stringify(sb.sessionFiles(done))}`); });
    assert.deepEqual(sb.sessionFiles(done).map((f) => [path.relative(root, f.path), f.added, f.removed]), [[path.join('src', 'app.ts'), 2, 1], [path.join('notes', 'release.md'), 3, 0]]);

    assert.equal(sb.nextWaitingSession(), waiting, 'Go to Next Session Waiting for You goes to the permission');
    assert.equal(sb.activeSessionId(), waiting);
    assert.ok(sb.respondPermission(waiting, 'allow_once'));
    await waitingTurn;
    await until(() => sb.sessionsBadge() === undefined, 'nothing waits any more');
    assert.equal(sb.nextWaitingSession(), undefined);

    sb.showInChatView(done);
    await until(() => state(done) === 'idle', 'seen, the finished session is idle');
  });

  it('finds a word of a failed session\'s answer in the transcripts, not in the others', async () => {
    const fail = await sb.newSession(await useScriptedAgent('homeFail'));
    await sb.prompt(fail, 'Look at the pipeline');
    const other = await sb.newSession(await useScriptedAgent('homeWaiting'));
    sb.flushTranscripts();
    const found = await sb.searchTranscripts('Zeppelin');
    assert.ok(found.some((m) => m.sessionId === fail), JSON.stringify(found));
    assert.ok(!found.some((m) => m.sessionId === other));
    assert.match(found.find((m) => m.sessionId === fail)?.snippet ?? '', /flaky zeppelin pipeline/);
  });

  it('a preset saved from one session starts another with the same model, mode and prompt prefix', async () => {
    const agent = await useScriptedAgent('homeDone');
    const first = await sb.newSession(agent);
    await sb.prompt(first, '/settings');
    assert.match(agentText(sb, first), /Now smart in code mode/);
    await sb.savePreset(first, { name: 'Smart coder', promptPrefix: 'Be brief.', scope: 'user' });
    const saved = vscode.workspace.getConfiguration('switchboard').inspect<unknown[]>('presets')?.globalValue;
    assert.deepEqual(saved, [{ name: 'Smart coder', agent, model: 'smart', mode: 'code', promptPrefix: 'Be brief.' }]);
    assert.deepEqual(sb.presets().map((p) => [p.name, p.scope]), [['Smart coder', 'user']]);

    const second = await sb.startPreset('Smart coder');
    const pid = sb.session(second)?.host.pid;
    await sb.prompt(second, '/which');
    assert.match(agentText(sb, second), /Model smart, mode code\. You sent: Be brief\.\s*\/which/);
    assert.equal(sb.snapshot(second)?.state.title, '/which', 'the session is named after what the user wrote');
    const calls = clientCalls(pid);
    assert.ok(calls.includes('session/set_config_option') && !calls.includes('session/set_mode'), calls.join(', '));
  });

  it('a preset with a legacy mode uses session/set_mode, and reports what the agent does not offer', async () => {
    const agent = await useScriptedAgent('permission'); // legacy modes plan / code / ask, no config options
    await setSetting('presets', [{ name: 'Legacy', agent, mode: 'ask', model: 'smart' }]);
    const id = await sb.startPreset('Legacy');
    const calls = clientCalls(sb.session(id)?.host.pid);
    assert.ok(calls.includes('session/set_mode') && !calls.includes('session/set_config_option'), calls.join(', '));
    assert.equal(sb.snapshot(id)?.state.modes?.currentModeId, 'ask');
  });
});
