/**
 * Turns that always end and errors that say what the agent said, in the real extension host
 * (docs/errors-and-cancellation.md), against the scripted agents of
 * test/fixtures/agents/scenarios/stubbornCancel.json (ignores session/cancel) and agentErrors.json.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import { agentProcesses, api, until, useScriptedAgent } from './helpers';

describe('turns always end; errors say what the agent said', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => { await sb.stopAll(); });

  const notices = (id: string) => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'notice' ? [`${e.level} ${e.text}`] : []));

  it('Stop on an agent that never answers ends the turn after the grace period; the chat takes the next prompt', async () => {
    const agent = await useScriptedAgent('stubbornCancel', { SCRIPTED_AGENT_DELAY_SCALE: '1' });
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'hang');
    await until(() => sb.snapshot(id)?.entries.some((e) => e.kind === 'toolCall' && e.status === 'in_progress'), 'the tool call runs');
    sb.cancel(id);
    assert.equal(sb.session(id)?.turnEnd.isStopping, true, 'waiting for the agent to confirm');
    await turn;
    const snap = sb.snapshot(id);
    assert.equal(snap?.state.status, 'idle');
    assert.equal(sb.session(id)?.isWorking, false);
    assert.ok(snap?.entries.some((e) => e.kind === 'toolCall' && e.status === 'cancelled'), 'the tool call shows cancelled');
    assert.ok(notices(id).some((n) => /^warning Scripted stubbornCancel did not confirm the cancel within 3 s\./.test(n)), notices(id).join('\n'));
    // the agent still runs the old turn and refuses a new one: the refusal is shown with its reason
    await sb.prompt(id, 'hello');
    assert.equal(sb.snapshot(id)?.state.status, 'idle');
    assert.ok(notices(id).some((n) => /^error The agent failed: .*already running/.test(n)), notices(id).join('\n'));
  });

  it('a failed prompt shows the agent\'s explanation from error.data', async () => {
    const agent = await useScriptedAgent('agentErrors');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'fail please');
    assert.ok(notices(id).includes('error The agent failed: Internal error: model overloaded, try again in a minute'), notices(id).join('\n'));
  });

  it('a failed reopen shows the agent\'s explanation', async () => {
    const agent = await useScriptedAgent('agentErrors');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'hello');
    sb.flushTranscripts();
    sb.closeSession(id);
    await sb.openSession(agent, id);
    const state = sb.snapshot(id)?.state;
    assert.equal(state?.status, 'disconnected', 'opened read-only');
    assert.match(state?.error ?? '', /could not reopen it \(Internal error: the session store is locked by another process\)/);
  });

  it('an agent started to reopen a session it then could not reopen is stopped, unless a session uses it', async () => {
    const agent = await useScriptedAgent('agentErrors');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'hello');
    sb.flushTranscripts();
    sb.closeSession(id);
    await sb.stopAll();
    await until(() => agentProcesses('agentErrors') === 0, 'the agent process gone');
    // as after a reload: the agent is started for the session, and session/resume fails
    await sb.openSession(agent, id);
    assert.equal(sb.isReadOnly(id), true, 'opened read-only');
    await until(() => agentProcesses('agentErrors') === 0 && !sb.runningAgents().includes(agent), 'the agent started for it stopped', 10000);
    sb.closeSession(id);
    // another session uses the agent: it keeps running
    const other = await sb.newSession(agent);
    await sb.openSession(agent, id);
    assert.equal(sb.isReadOnly(id), true, 'opened read-only again');
    assert.ok(sb.runningAgents().includes(agent), 'the agent of the other session still runs');
    await sb.prompt(other, 'still here');
    assert.equal(agentProcesses('agentErrors'), 1);
  });

  it('a response to a request id the client never sent is a warning in the agent log', async () => {
    const agent = await useScriptedAgent('agentErrors');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'stray');
    const logs = () => fs.readdirSync(path.dirname(sb.logDir()), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.log') && f.includes('Scripted agentErrors')).map((f) => fs.readFileSync(path.join(path.dirname(sb.logDir()), f), 'utf8')).join('\n');
    // the log files are written asynchronously
    await until(() => /\[warning\].*request id 4242, which matches no pending request/.test(logs()), 'the warning in the agent log', 10000);
  });
});
