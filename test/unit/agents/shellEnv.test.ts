import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  clearShellEnvCache, parseShellEnvOutput, resolveShellEnv, type ShellRunner, shellArgs,
} from '../../../src/agents/shellEnv';
import { sourceFixture } from './processFixtures';

const fakeShell = sourceFixture('fakeShell.sh');
const baseEnv = { PATH: '/usr/bin:/bin', HOME: '/tmp', KEEP: 'me' };

describe('resolveShellEnv', function () {
  this.timeout(4000);
  // a checkout without file modes (core.fileMode=false) loses the executable bit
  before(() => fs.chmodSync(fakeShell, 0o755));
  afterEach(() => clearShellEnvCache());

  it('reads the login-shell environment between the markers, ignoring rc noise around it', async () => {
    const result = await resolveShellEnv({ shell: fakeShell, baseEnv, cache: false });
    assert.equal(result.source, 'loginShell', result.reason);
    assert.equal(result.shell, fakeShell);
    assert.equal(result.env.PATH, `/opt/fakeshell/bin:${baseEnv.PATH}`);
    assert.equal(result.env.FAKE_SHELL_VAR, 'set by rc');
    assert.equal(result.env.KEEP, 'me');
    assert.match(result.env.FAKE_SHELL_ARGS, /^-i -l -c /);
    for (const name of ['ELECTRON_RUN_AS_NODE', 'VSCODE_RESOLVING_ENVIRONMENT', 'SWITCHBOARD_RESOLVING_ENVIRONMENT']) {
      assert.equal(result.env[name], undefined, `${name} leaked`);
    }
  });

  it('keeps a resolution variable that the base environment itself had', async () => {
    const result = await resolveShellEnv({ shell: fakeShell, baseEnv: { ...baseEnv, ELECTRON_RUN_AS_NODE: '1' }, cache: false });
    assert.equal(result.env.ELECTRON_RUN_AS_NODE, '1');
  });

  it('falls back to the base environment when the shell times out, and kills it', async () => {
    const started = Date.now();
    const result = await resolveShellEnv({ shell: fakeShell, baseEnv: { ...baseEnv, FAKE_SHELL_MODE: 'hang' }, timeoutMs: 300, cache: false });
    assert.ok(Date.now() - started < 1500);
    assert.equal(result.source, 'processEnv');
    assert.equal(result.env.PATH, baseEnv.PATH);
    assert.match(result.reason ?? '', /did not print its environment within 300 ms/);
  });

  it('falls back with the exit code and first stderr line when the shell fails', async () => {
    const result = await resolveShellEnv({ shell: fakeShell, baseEnv: { ...baseEnv, FAKE_SHELL_MODE: 'fail' }, cache: false });
    assert.equal(result.source, 'processEnv');
    assert.match(result.reason ?? '', /exited with code 3 without printing its environment: rc: something on stderr/);
  });

  it('falls back when the shell prints no markers', async () => {
    const result = await resolveShellEnv({ shell: fakeShell, baseEnv: { ...baseEnv, FAKE_SHELL_MODE: 'garbage' }, cache: false });
    assert.equal(result.source, 'processEnv');
    assert.match(result.reason ?? '', /exited with code 0 without printing its environment/);
  });

  it('falls back when the shell does not exist', async () => {
    const result = await resolveShellEnv({ shell: '/nonexistent/bin/zsh', baseEnv, cache: false });
    assert.equal(result.source, 'processEnv');
    assert.match(result.reason ?? '', /could not run login shell \/nonexistent\/bin\/zsh: .*ENOENT/);
  });

  it('uses the base environment as is on Windows without running anything', async () => {
    const runner: ShellRunner = () => assert.fail('no shell on Windows');
    const result = await resolveShellEnv({ platform: 'win32', baseEnv: { Path: 'C:\\bin' }, runner, cache: false });
    assert.deepEqual(result.env, { Path: 'C:\\bin' });
    assert.equal(result.source, 'processEnv');
  });

  it('caches the result per shell for the process', async () => {
    let runs = 0;
    const runner: ShellRunner = async () => {
      runs++;
      return { stdout: 'no markers', stderr: '', code: 0, timedOut: false };
    };
    const first = await resolveShellEnv({ shell: '/bin/cached-sh', baseEnv, runner });
    const second = await resolveShellEnv({ shell: '/bin/cached-sh', baseEnv, runner });
    assert.equal(first, second);
    assert.equal(runs, 1);
    clearShellEnvCache();
    await resolveShellEnv({ shell: '/bin/cached-sh', baseEnv, runner });
    assert.equal(runs, 2);
  });

  it('never rejects, even when the runner throws', async () => {
    const runner: ShellRunner = () => Promise.reject(new Error('spawn exploded'));
    const result = await resolveShellEnv({ shell: '/bin/bash', baseEnv, runner, cache: false });
    assert.match(result.reason ?? '', /spawn exploded/);
  });
});

describe('shellArgs', () => {
  const node = '/opt/node it\'s/bin/node';
  it('runs POSIX shells interactive and login, quoting the node path', () => {
    const args = shellArgs('/usr/bin/zsh', node, 11, 22);
    assert.deepEqual(args?.slice(0, 3), ['-i', '-l', '-c']);
    assert.equal(args?.[3], `'/opt/node it'\\''s/bin/node' -e 'process.stdout.write((11).toString(16)+JSON.stringify(process.env)+(22).toString(16))'`);
  });

  it('uses -i -c for csh and tcsh, which take -l only alone', () => {
    assert.deepEqual(shellArgs('/bin/tcsh', '/n', 1, 2)?.slice(0, 2), ['-i', '-c']);
  });

  it('escapes for fish, prefixes ^ for nu, and uses python for xonsh', () => {
    assert.match(shellArgs('/usr/local/bin/fish', node, 1, 2)?.[3] ?? '', /^'\/opt\/node it\\'s\/bin\/node' -e /);
    assert.equal(shellArgs('/usr/bin/nu', node, 1, 2), undefined);
    assert.match(shellArgs('/usr/bin/nu', '/n', 1, 2)?.[3] ?? '', /^\^'\/n' -e '/);
    assert.match(shellArgs('/usr/bin/xonsh', '/n', 1, 2)?.[3] ?? '', /^import os,json,sys;sys\.stdout\.write\(format\(1,"x"\)/);
    assert.deepEqual(shellArgs('/usr/bin/pwsh', '/n', 1, 2)?.slice(0, 2), ['-Login', '-Command']);
  });

  it('never puts the printed markers literally into the command line', () => {
    const joined = (shellArgs('/bin/bash', '/n', 0xabcdef, 0xfedcba) ?? []).join(' ');
    assert.ok(!joined.includes('abcdef') && !joined.includes('fedcba'), joined);
  });
});

describe('parseShellEnvOutput', () => {
  it('extracts the JSON between the markers and keeps only string values', () => {
    const out = 'motd\nSTART{"A":"1","B":2,"PATH":"/x"}END\nbye';
    assert.deepEqual(parseShellEnvOutput(out, 'START', 'END'), { A: '1', PATH: '/x' });
  });

  it('returns undefined for missing markers or bad JSON', () => {
    assert.equal(parseShellEnvOutput('START{"A":"1"}', 'START', 'END'), undefined);
    assert.equal(parseShellEnvOutput('START{oops}END', 'START', 'END'), undefined);
    assert.equal(parseShellEnvOutput('START[1]END', 'START', 'END'), undefined);
  });
});
