import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, until, useScriptedAgent } from './helpers';

const notices = (sb: SwitchboardTestApi, id: string) => (sb.snapshot(id)?.entries ?? []).flatMap((e) => (e.kind === 'notice' ? [e] : []));

describe('crash recovery', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  after(async () => { await sb.stopAll(); });

  it('kill -9 mid-turn shows the exit within 1 s; Restart resumes the session and the next prompt works', async () => {
    const agent = await useScriptedAgent('crashResume');
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'slow please');
    await until(() => /Working on it/.test(agentText(sb, id)), 'the turn to stream');
    const pid = sb.session(id)?.host.pid;
    assert.ok(pid, 'the agent runs');
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    const exitNotice = await until(() => notices(sb, id).find((n) => /Agent exited \(signal SIGKILL\)/.test(n.text)), 'the exit notice', 1000);
    assert.ok(Date.now() - killedAt <= 1000, `shown after ${Date.now() - killedAt} ms`);
    assert.equal(exitNotice.action, 'restart', 'the notice offers Restart');
    await turn;
    await sb.restartAgent(id);
    assert.notEqual(sb.session(id)?.host.pid, pid, 'a new agent process');
    await until(() => notices(sb, id).find((n) => /session was resumed/.test(n.text)), 'the resumed notice');
    assert.ok(notices(sb, id).some((n) => n.action === 'resend'), 'the interrupted prompt is offered for resend');
    await sb.prompt(id, 'hello again');
    assert.match(agentText(sb, id), /answer after restart/);
    assert.equal(sb.snapshot(id)?.state.status, 'idle');
  });

  it('Restart starts the agent as configured now: an env edited in the settings reaches the new process', async function () {
    if (process.platform !== 'linux') this.skip(); // reads the process environment from /proc
    const envOf = (pid: number | undefined) => fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    const agent = await useScriptedAgent('crashResume', { SWITCHBOARD_TEST_MARK: 'before' }, 'scripted-restart-edited');
    const id = await sb.newSession(agent);
    const pid = sb.session(id)?.host.pid;
    assert.ok(envOf(pid).includes('SWITCHBOARD_TEST_MARK=before'), 'the agent runs with the configured env');
    await useScriptedAgent('crashResume', { SWITCHBOARD_TEST_MARK: 'after' }, 'scripted-restart-edited');
    await sb.restartAgent(id);
    const next = sb.session(id)?.host.pid;
    assert.ok(next && next !== pid, 'a new agent process');
    assert.ok(envOf(next).includes('SWITCHBOARD_TEST_MARK=after'), 'the restarted agent has the edited env');
    await until(() => notices(sb, id).find((n) => /session was resumed/.test(n.text)), 'the session is resumed in the new process');
  });

  it('a crash restarts the agent automatically, reloads the session without duplicating it, and Resend sends the prompt again', async () => {
    const agent = await useScriptedAgent('crashLoad');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'please crash');
    await until(() => notices(sb, id).find((n) => /Agent exited \(code 3\)[\s\S]*fatal: out of cheese/.test(n.text)), 'the exit notice with stderr');
    await until(() => notices(sb, id).find((n) => /session was loaded again/.test(n.text)), 'the automatic restart');
    assert.ok(notices(sb, id).some((n) => /Restarting .* automatically \(restart 1 of at most 3/.test(n.text)), 'says it restarts automatically');
    const users = () => (sb.snapshot(id)?.entries ?? []).filter((e) => e.kind === 'user').length;
    assert.equal(users(), 1, 'the replay of session/load is not appended again');
    const session = sb.session(id);
    assert.ok(session?.interruptedPrompt, 'the interrupted prompt is kept');
    await session.resendInterrupted();
    assert.equal(users(), 2);
    await until(() => notices(sb, id).filter((n) => /Agent exited/.test(n.text)).length === 2, 'the second crash');
  });

  it('stops restarting after 3 crashes within 3 minutes and says so', async () => {
    const agent = await useScriptedAgent('crashLoop');
    const id = await sb.newSession(agent);
    for (let i = 1; i <= 4; i++) {
      await until(() => sb.session(id)?.host.state === 'ready' && sb.snapshot(id)?.state.status === 'idle', `ready before crash ${i}`);
      await sb.prompt(id, 'crash now');
      await until(() => notices(sb, id).filter((n) => /Agent exited/.test(n.text)).length === i, `crash ${i}`);
    }
    const stop = await until(() => notices(sb, id).find((n) => /not restarted automatically/.test(n.text)), 'the give-up notice');
    assert.match(stop.text, /crashed 4 times within 3 minutes/);
    assert.equal(stop.action, 'restart');
    await sb.restartAgent(id);
    await sb.prompt(id, 'hello');
    assert.match(agentText(sb, id), /loaded and answering/);
  });
});
