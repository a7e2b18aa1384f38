import * as assert from 'node:assert/strict';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import type { CandidateKind, CommandFileSystem } from '../../../src/agents/resolveCommand';
import { planSpawn } from '../../../src/agents/spawnPlan';
import { startFailure } from '../../../src/agents/startFailure';
import { inert, inertMaxLength } from '../../../src/shared/inertText';

function fakeFs(files: Record<string, CandidateKind>): CommandFileSystem {
  return { probe: async (file) => files[file] ?? 'missing' };
}

const missing: AgentDefinition = { id: 'missing', name: 'Missing Agent', command: 'switchboard-no-such-agent-cli', args: ['--acp'], env: {} };

/** The error New Session gets for an agent whose command is on no PATH directory (a long PATH, as on a developer's machine). */
async function notFound(def: AgentDefinition): Promise<unknown> {
  const PATH = Array.from({ length: 30 }, (_, i) => `/home/someone/.local/share/tools/version-${i}/bin`).join(':');
  return planSpawn(def, { cwd: '/work', baseEnv: { PATH }, platform: 'linux', fileSystem: fakeFs({ '/work': 'directory' }) }).then(() => undefined, (e: unknown) => e);
}

describe('startFailure: the notification of an agent that could not start', () => {
  it('says the command is not on PATH once, with the whole advice, and leaves the searched PATH to the agent log', async () => {
    const error = await notFound(missing);
    assert.ok(error instanceof Error && error.message.includes('version-29'), 'the error itself lists the PATH searched');
    const text = inert.message`Could not start ${missing.name}: ${startFailure(missing.name, error)}`;
    assert.equal(text, 'Could not start Missing Agent: \'switchboard-no-such-agent-cli\' was not found on PATH. Install it, or set "command" to its absolute path in the switchboard.agents setting.');
    assert.ok(startFailure(missing.name, error).length < inertMaxLength.message, 'nothing is cut off');
    assert.doesNotMatch(text, /Cannot start agent/);
  });

  it('names a known command\'s install hint, and a missing path without "on PATH"', async () => {
    assert.match(startFailure('Gemini', await notFound({ ...missing, name: 'Gemini', command: 'gemini' })), /^'gemini' was not found on PATH\. Install it with `npm i -g @google\/gemini-cli`, or set/);
    assert.match(startFailure('Local', await notFound({ ...missing, name: 'Local', command: '/opt/agent/bin/agent' })), /^'\/opt\/agent\/bin\/agent' was not found\. Install it, or set/);
  });

  it('drops the spawn error\'s own "Cannot start agent" prefix from other errors, and keeps other messages', () => {
    assert.equal(startFailure('X', new Error('Cannot start agent \'X\': its working directory \'/w\' does not exist.')), 'its working directory \'/w\' does not exist.');
    assert.equal(startFailure('X', new Error('Internal error: boom')), 'Internal error: boom');
    assert.equal(startFailure('X', 'plain'), 'plain');
  });
});
