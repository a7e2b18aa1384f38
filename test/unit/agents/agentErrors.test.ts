import * as assert from 'node:assert/strict';
import { AgentExitedError, AgentSpawnError, pickTellingLine } from '../../../src/agents/agentErrors';

describe('agentErrors', () => {
  it('AgentExitedError names the agent, the code and the telling stderr line', () => {
    const error = new AgentExitedError({
      agentName: 'Claude Code', code: 1, signal: null, requested: false,
      stderrTail: ['/app/cli.js:10', 'throw new Error("x")', '^', '', 'Error: ANTHROPIC_API_KEY is not set', '    at main (/app/cli.js:10:7)', '', 'Node.js v20.20.0'],
    });
    assert.equal(error.reason, 'exitCode');
    assert.equal(error.message, "Agent 'Claude Code' exited with code 1: Error: ANTHROPIC_API_KEY is not set");
  });

  it('AgentExitedError explains exit code 127 and an empty stderr', () => {
    const error = new AgentExitedError({ agentName: 'A', code: 127, signal: null, requested: false, stderrTail: [] });
    assert.equal(error.message, "Agent 'A' exited with code 127 (exit code 127 usually means a program it needs, such as node, is not on PATH) (no stderr output)");
  });

  it('AgentExitedError reason is stopped when the exit was requested', () => {
    const error = new AgentExitedError({ agentName: 'A', code: null, signal: 'SIGTERM', requested: true, stderrTail: ['bye'] });
    assert.ok(AgentExitedError.is(error, 'stopped'));
    assert.ok(!AgentExitedError.is(error, 'signal'));
    assert.equal(error.message, "Agent 'A' was stopped.");
  });

  it('static is() discriminates by class and reason', () => {
    const error = new AgentSpawnError('cwdNotFound', 'm', { agentName: 'A', command: 'a', cwd: '/x' });
    assert.ok(AgentSpawnError.is(error));
    assert.ok(AgentSpawnError.is(error, 'cwdNotFound'));
    assert.ok(!AgentSpawnError.is(error, 'commandNotFound'));
    assert.ok(!AgentExitedError.is(error));
    assert.ok(!AgentSpawnError.is(new Error('m')));
    assert.deepEqual(error.searchedPath, []);
  });

  it('pickTellingLine skips stack frames, blank lines and runtime footers', () => {
    assert.equal(pickTellingLine(['panic: boom', "note: run with `RUST_BACKTRACE=1` to see a backtrace"]), 'panic: boom');
    assert.equal(pickTellingLine(['', '   ']), undefined);
    assert.equal(pickTellingLine(['  listening  ']), 'listening');
  });
});
