import * as assert from 'node:assert/strict';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import { AgentSpawnError } from '../../../src/agents/agentErrors';
import type { CandidateKind, CommandFileSystem } from '../../../src/agents/resolveCommand';
import { installHint, mergeEnv, planSpawn } from '../../../src/agents/spawnPlan';

function fakeFs(files: Record<string, CandidateKind>): CommandFileSystem {
  return { probe: async (file) => files[file] ?? 'missing' };
}

const claude: AgentDefinition = { id: 'claude', name: 'Claude Code', command: 'npx', args: ['-y', '@zed-industries/claude-code-acp'], env: { DEBUG: '1' } };

describe('spawnPlan', () => {
  it('mergeEnv: later layers win; on Windows names are case-insensitive and keep the first spelling', () => {
    assert.deepEqual(mergeEnv('linux', { PATH: 'a', Path: 'b' }, { PATH: 'c', X: undefined }), { PATH: 'c', Path: 'b' });
    assert.deepEqual(mergeEnv('win32', { Path: 'a', ComSpec: 'cmd' }, { PATH: 'b' }, undefined, { path: 'c' }), { Path: 'c', ComSpec: 'cmd' });
  });

  it('runs a Windows .cmd shim through cmd.exe with verbatim, escaped arguments', async () => {
    const plan = await planSpawn(claude, {
      cwd: 'C:\\work',
      baseEnv: { Path: 'C:\\Program Files\\nodejs', ComSpec: 'C:\\WINDOWS\\system32\\cmd.exe', ELECTRON_RUN_AS_NODE: '1' },
      env: { path: 'C:\\Program Files\\nodejs;C:\\other' },
      platform: 'win32',
      fileSystem: fakeFs({ 'C:\\work': 'directory', 'C:\\Program Files\\nodejs\\npx.cmd': 'executable' }),
    });
    assert.equal(plan.file, 'C:\\WINDOWS\\system32\\cmd.exe');
    assert.equal(plan.commandPath, 'C:\\Program Files\\nodejs\\npx.cmd');
    assert.equal(plan.windowsVerbatimArguments, true);
    assert.deepEqual(plan.args.slice(0, 4), ['/d', '/s', '/v:off', '/c']);
    assert.deepEqual(plan.env, { Path: 'C:\\Program Files\\nodejs;C:\\other', ComSpec: 'C:\\WINDOWS\\system32\\cmd.exe', DEBUG: '1' });
    assert.deepEqual(plan.searchedPath, ['C:\\Program Files\\nodejs', 'C:\\other']);
  });

  it('spawns a Windows .exe directly', async () => {
    const plan = await planSpawn({ ...claude, command: 'opencode', args: ['acp'] }, {
      cwd: 'C:\\work', baseEnv: { PATH: 'C:\\bin' }, platform: 'win32',
      fileSystem: fakeFs({ 'C:\\work': 'directory', 'C:\\bin\\opencode.exe': 'executable' }),
    });
    assert.deepEqual([plan.file, plan.args, plan.windowsVerbatimArguments], ['C:\\bin\\opencode.exe', ['acp'], false]);
  });

  it('refuses an argument cmd.exe cannot carry, as invalidArgument', async () => {
    await assert.rejects(planSpawn({ ...claude, args: ['line\nbreak'] }, {
      cwd: 'C:\\work', baseEnv: { PATH: 'C:\\bin' }, platform: 'win32',
      fileSystem: fakeFs({ 'C:\\work': 'directory', 'C:\\bin\\npx.cmd': 'executable' }),
    }), (ex) => AgentSpawnError.is(ex, 'invalidArgument') && /Claude Code/.test(ex.message));
  });

  it('rejects a relative or non-directory cwd', async () => {
    const fileSystem = fakeFs({ '/file': 'notExecutable' });
    await assert.rejects(planSpawn(claude, { cwd: 'relative', baseEnv: {}, platform: 'linux', fileSystem }), (ex) => AgentSpawnError.is(ex, 'cwdNotFound') && /not an absolute path/.test(ex.message));
    await assert.rejects(planSpawn(claude, { cwd: '/file', baseEnv: {}, platform: 'linux', fileSystem }), (ex) => AgentSpawnError.is(ex, 'cwdNotFound') && /not an accessible directory/.test(ex.message));
  });

  it('gives install hints for well-known agents', () => {
    assert.equal(installHint('gemini'), 'Install it with `npm i -g @google/gemini-cli`, or set "command" to its absolute path in the switchboard.agents setting.');
    assert.match(installHint('npx'), /^npx comes with Node\.js/);
    assert.equal(installHint('my-agent'), 'Install it, or set "command" to its absolute path in the switchboard.agents setting.');
  });
});
