/**
 * Organizing sessions (docs/sessions.md "Organizing sessions"), against scripted agents: the unstable
 * session methods `session/fork`, `session/set_title`, `session/archive`, `session/unarchive` and
 * `session/status` (and the `archived` filter of `session/list`) are sent only to an agent that advertises
 * them, as the recorded traffic shows; Rename and Archive work in Switchboard's own store for every agent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, clientCalls, setSetting, until, useScriptedAgent } from './helpers';

const unstableMethods = ['session/fork', 'session/set_title', 'session/archive', 'session/unarchive', 'session/status'];

describe('organizing sessions: fork, rename, archive, status', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let extra: string;
  before(async () => {
    sb = await api();
    extra = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-fork-')));
    // a fork carries the session's roots like session/new: additionalDirectories only with that capability
    await setSetting('additionalDirectories', [extra]);
  });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => {
    await sb.stopAll();
    await setSetting('additionalDirectories', undefined);
    fs.rmSync(extra, { recursive: true, force: true });
  });

  it('without the capabilities: none of the unstable methods is sent, and rename and archive work in Switchboard', async () => {
    const agent = await useScriptedAgent('organizeNoCap');
    const id = await sb.newSession(agent);
    const pid = sb.session(id)?.host.pid;
    await sb.prompt(id, 'hello');
    assert.equal(sb.snapshot(id)?.state.canFork, undefined, 'the header offers no Fork');
    await assert.rejects(sb.forkSession(id), /does not support forking/);

    const renamed = await sb.renameSession(agent, id, 'Local title');
    assert.deepEqual([renamed.agent, renamed.title, sb.snapshot(id)?.state.title], ['local', 'Local title', 'Local title']);
    await sb.prompt(id, '/autotitle');
    assert.equal(sb.snapshot(id)?.state.title, 'Local title', 'the user\'s title wins over the agent\'s later one');

    assert.equal((await sb.archiveSession(agent, id)).agent, 'local');
    await until(() => !sb.sessionIds().includes(id), 'archiving closed the session');
    sb.flushTranscripts();
    assert.ok(!(await sb.history()).some((r) => r.sessionId === id), 'hidden from history');
    const archived = (await sb.history({ archived: true })).find((r) => r.sessionId === id);
    assert.ok(archived?.archived && archived.listed, `shown with the filter, and still listed by the agent (${JSON.stringify(archived)})`);
    assert.equal(archived.title, 'Local title');

    assert.equal((await sb.unarchiveSession(agent, id)).agent, 'local');
    assert.equal((await sb.history()).find((r) => r.sessionId === id)?.archived, false);
    const again = await sb.openSession(agent, id);
    assert.equal(sb.isReadOnly(again), false, 'resumed');
    assert.equal(sb.snapshot(again)?.state.title, 'Local title', 'the title comes back with the session');

    await until(() => clientCalls(pid).includes('session/resume'), 'the resume in the traffic');
    const calls = clientCalls(pid);
    for (const method of unstableMethods) assert.ok(!calls.includes(method), `${method} was never sent (${calls.join(', ')})`);
    assert.ok(calls.includes('session/list') && calls.includes('session/close'), calls.join(', '));
  });

  it('forks with session/fork: the fork shows the transcript so far under a marker, has its own options and answers; the source is unchanged', async () => {
    const agent = await useScriptedAgent('organize');
    const id = await sb.newSession(agent);
    const pid = sb.session(id)?.host.pid;
    await sb.session(id)?.setConfigOption('model', 'smart');
    await sb.prompt(id, 'Plan the release');
    assert.equal(sb.snapshot(id)?.state.canFork, true, 'the header offers Fork');
    const sourceEntries = sb.snapshot(id)?.entries.length;

    const forkId = await sb.forkSession(id);
    assert.notEqual(forkId, id);
    const fork = sb.snapshot(forkId);
    const [marker, user, answer] = fork?.entries ?? [];
    assert.ok(marker?.kind === 'notice' && marker.marker === 'fork' && /^Forked from "Plan the release"/.test(marker.text), JSON.stringify(marker));
    assert.ok(user?.kind === 'user' && answer?.kind === 'agent' && answer.text === `Answer 1 from ${id} (smart): Plan the release`, 'the transcript so far');
    assert.equal(fork?.state.title, 'Plan the release (fork)');
    assert.equal(fork?.state.configOptions?.[0]?.type === 'select' && fork.state.configOptions[0].currentValue, 'smart', 'its own options, from the response');

    await sb.prompt(forkId, 'Take two');
    assert.ok(agentText(sb, forkId).endsWith(`Answer 2 from ${forkId} (smart): Take two`), agentText(sb, forkId));
    assert.equal(sb.snapshot(id)?.entries.length, sourceEntries, 'the source chat is unchanged');
    await sb.prompt(id, 'Still here');
    assert.ok(agentText(sb, id).endsWith(`Answer 2 from ${id} (smart): Still here`));
    assert.ok(clientCalls(pid).includes('session/fork'));
  });

  it('sends additionalDirectories with session/fork only to an agent that advertises them', async () => {
    const id = await sb.newSession(await useScriptedAgent('forkRoots'));
    const forkId = await sb.forkSession(id);
    await sb.prompt(forkId, 'roots?');
    assert.equal(agentText(sb, forkId).trim(), `roots of ${forkId}: ${JSON.stringify([extra])}`);
    // the organize agent does not take them, and would refuse the fork (-32602) if they came: the fork above passed
  });

  it('renames with session/set_title: the agent\'s stored title is shown, and a later agent title does not replace it', async () => {
    const agent = await useScriptedAgent('organize');
    const id = await sb.newSession(agent);
    const pid = sb.session(id)?.host.pid;
    const renamed = await sb.renameSession(agent, id, '  Release   notes ');
    assert.deepEqual([renamed.agent, renamed.title], ['told', 'Release notes']);
    await sb.prompt(id, '/title');
    assert.equal(agentText(sb, id).trim(), "The agent's title: Release notes");
    await sb.prompt(id, '/autotitle');
    assert.equal(sb.snapshot(id)?.state.title, 'Release notes');
    sb.flushTranscripts();
    assert.equal((await sb.history()).find((r) => r.sessionId === id)?.title, 'Release notes');
    assert.ok(clientCalls(pid).includes('session/set_title'));
  });

  it('keeps the user\'s title when the agent refuses session/set_title, and says what it answered', async () => {
    const agent = await useScriptedAgent('organizeTitleError');
    const id = await sb.newSession(agent);
    const renamed = await sb.renameSession(agent, id, 'Mine anyway');
    assert.equal(renamed.agent, 'failed');
    assert.match(renamed.error ?? '', /titles are read-only here/);
    assert.equal(sb.snapshot(id)?.state.title, 'Mine anyway');
  });

  it('archives with session/archive (after session/close) and unarchives; session/list gets the archived filter', async () => {
    const agent = await useScriptedAgent('organize');
    const id = await sb.newSession(agent);
    const pid = sb.session(id)?.host.pid;
    await sb.prompt(id, 'Archive me');
    assert.equal((await sb.archiveSession(agent, id)).agent, 'told');
    await until(() => !sb.sessionIds().includes(id), 'archiving closed the session');
    assert.ok(!(await sb.history()).some((r) => r.sessionId === id || r.sessionId === 'org-archived-1'), 'archived sessions are hidden');
    const all = await sb.history({ archived: true });
    for (const sessionId of [id, 'org-archived-1']) {
      const row = all.find((r) => r.sessionId === sessionId);
      assert.ok(row?.archived && row.listed, `${sessionId}: listed by the agent as archived (${JSON.stringify(row)})`);
    }
    assert.equal((await sb.unarchiveSession(agent, id)).agent, 'told');
    assert.ok((await sb.history()).some((r) => r.sessionId === id && !r.archived && r.listed), 'listed again');
    await until(() => clientCalls(pid).includes('session/unarchive'), 'the unarchive in the traffic');
    const calls = clientCalls(pid);
    assert.ok(calls.indexOf('session/close') < calls.indexOf('session/archive'), calls.join(', '));
  });

  it('asks session/status before a reopen; a session the agent no longer knows opens read-only without a resume', async () => {
    const agent = await useScriptedAgent('organize');
    // not the first id of a process: the new process below hands that one to another session
    sb.closeSession(await sb.newSession(agent));
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'Remember me');
    sb.closeSession(id);
    await until(() => !sb.sessionIds().includes(id), 'closed');
    sb.flushTranscripts();
    const again = await sb.openSession(agent, id);
    const pid = sb.session(again)?.host.pid;
    assert.equal(sb.isReadOnly(again), false);
    const calls = clientCalls(pid);
    assert.ok(calls.lastIndexOf('session/status') < calls.lastIndexOf('session/resume'), `status first (${calls.join(', ')})`);
    sb.closeSession(again);
    await until(() => !sb.sessionIds().includes(id), 'closed again');
    sb.flushTranscripts();

    await sb.stopAll(); // this agent keeps its sessions in memory only: a new process does not know it
    // another session keeps the new process running (one started only for the reopen is stopped after it)
    const probe = await sb.newSession(agent);
    const forgotten = await sb.openSession(agent, id);
    assert.equal(sb.isReadOnly(forgotten), true, 'read-only from the client\'s store');
    assert.match(sb.snapshot(forgotten)?.state.error ?? '', /does not know this session/);
    assert.ok(sb.snapshot(forgotten)?.entries.some((e) => e.kind === 'user'), 'with its transcript');
    const newCalls = clientCalls(sb.session(probe)?.host.pid);
    assert.ok(newCalls.includes('session/status') && !newCalls.includes('session/resume') && !newCalls.includes('session/load'), newCalls.join(', '));
  });
});
