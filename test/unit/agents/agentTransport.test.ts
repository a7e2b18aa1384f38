import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAgentDefinition } from '../../../src/agents/agentDefinition';
import { problems } from './definitionProblems';
import { envPreamble, remoteNotice, shellWord, sshLaunch, type SshTransport, transportLabel } from '../../../src/agents/agentTransport';


const ssh = (extra: Partial<SshTransport> = {}): SshTransport => ({ type: 'ssh', host: 'build-1', cwd: '/srv/app', options: [], ...extra });

/**
 * Runs ssh's remote command as sshd would, with the remote user's shell (`sh -c <command>`), the preamble and
 * `rest` on stdin; the "agent" prints what it got. No sshd here: test/integration/remoteAgents.test.ts has one.
 */
function runRemote(t: SshTransport, args: readonly string[], env: Record<string, string>, rest: string): Promise<{ stdout: string; code: number | null }> {
  const { args: sshArgs } = sshLaunch(t, process.execPath, ['-e', 'let i="";process.stdin.on("data",d=>i+=d).on("end",()=>console.log(JSON.stringify({argv:process.argv.slice(1),cwd:process.cwd(),env:process.env.SB_T,other:process.env.SB_U,stdin:i})))', ...args]);
  const remote = sshArgs[sshArgs.length - 1];
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', remote], { env: { PATH: process.env.PATH, SHELL: '/bin/sh', HOME: t.cwd }, stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('close', (code) => resolve({ stdout, code }));
    // a command that ends before it reads its input (a missing folder: exit 127) closes the pipe under the write
    child.stdin.on('error', () => {});
    child.stdin.end(envPreamble(env).text + rest);
  });
}

describe('agentTransport', () => {
  it('an entry with an ssh transport keeps it; stdio or none is a local agent', () => {
    const def = parseAgentDefinition({ id: 'far', command: 'claude-code-acp', transport: { type: 'ssh', host: 'build-1', user: 'me', port: 2222, cwd: '/home/me/app', options: ['StrictHostKeyChecking=accept-new'] } });
    assert.deepEqual(def.transport, { type: 'ssh', host: 'build-1', user: 'me', port: 2222, cwd: '/home/me/app', options: ['StrictHostKeyChecking=accept-new'] });
    assert.equal(parseAgentDefinition({ id: 'near', command: 'x', transport: { type: 'stdio' } }).transport, undefined);
    assert.equal('transport' in parseAgentDefinition({ id: 'near', command: 'x' }), false);
  });

  it('explains a missing host or cwd, a relative cwd, an option host and a bad option', () => {
    assert.match(problems({ id: 'a', command: 'x', transport: { type: 'ssh', cwd: '/a' } }), /"transport\.host" is required/);
    assert.match(problems({ id: 'a', command: 'x', transport: { type: 'ssh', host: 'h' } }), /"transport\.cwd" is required/);
    assert.match(problems({ id: 'a', command: 'x', transport: { type: 'ssh', host: 'h', cwd: 'app' } }), /must be an absolute path on the remote machine/);
    assert.match(problems({ id: 'a', command: 'x', transport: { type: 'ssh', host: '-oProxyCommand=x', cwd: '/a' } }), /"transport\.host" must be .*must not start with "-"/);
    assert.match(problems({ id: 'a', command: 'x', transport: { type: 'ssh', host: 'h', cwd: '/a', options: ['-v'] } }), /ssh option "Key=Value"/);
    assert.match(problems({ id: 'a', command: 'x', transport: { type: 'ftp' } }), /"transport" must be/);
  });

  it('runs ssh without a terminal or prompts, with keepalives, the host last but the remote command', () => {
    const { command, args } = sshLaunch(ssh({ user: 'me', port: 2222, identityFile: '/k/id', options: ['UserKnownHostsFile=/dev/null'] }), 'agent', ['--acp']);
    assert.equal(command, 'ssh');
    assert.deepEqual(args.slice(0, -2), ['-T', '-o', 'BatchMode=yes', '-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3', '-o', 'ConnectTimeout=20',
      '-p', '2222', '-l', 'me', '-i', '/k/id', '-o', 'IdentitiesOnly=yes', '-o', 'UserKnownHostsFile=/dev/null']);
    assert.equal(args[args.length - 2], 'build-1');
    assert.match(args[args.length - 1], /^exec \/bin\/sh -c '/);
  });

  it('the remote command enters cwd, takes the environment from the pipe and passes every argument through unchanged', async function () {
    this.timeout(20_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb transport \''));
    try {
      const tricky = ['a b', "it's", '$HOME', '`id`', '"q"', '\\n', 'x;y', '*', ''];
      const { stdout, code } = await runRemote(ssh({ cwd: dir }), tricky, { SB_T: 'v a l=ue $x \'q\'', 'BAD NAME': 'x', SB_U: 'two\nlines' }, '{"jsonrpc":"2.0"}\nnext line\n');
      assert.equal(code, 0);
      const got = JSON.parse(stdout) as { argv: string[]; cwd: string; env: string; other?: string; stdin: string };
      assert.deepEqual(got.argv, tricky, 'every argument as given');
      assert.equal(fs.realpathSync(got.cwd), fs.realpathSync(dir));
      assert.equal(got.env, 'v a l=ue $x \'q\'', 'the variable from the preamble, verbatim');
      assert.equal(got.other, undefined, 'a value with a line break is not sent');
      assert.equal(got.stdin, '{"jsonrpc":"2.0"}\nnext line\n', 'the protocol after the preamble reaches the agent whole');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a missing remote folder ends with 127 before the agent starts', async () => {
    const { code, stdout } = await runRemote(ssh({ cwd: '/nonexistent/sb-folder' }), [], {}, '');
    assert.equal(code, 127);
    assert.equal(stdout, '');
  });

  it('leaves out and names what cannot travel in the preamble', () => {
    assert.deepEqual(envPreamble({ A: '1', 'B C': '2', D: 'x\ny', _E: '' }), { text: 'A=1\n_E=\n\n', skipped: ['B C', 'D'] });
    assert.equal(envPreamble({}).text, '\n');
  });

  it('quotes a shell word only when it needs it, and names the place for people', () => {
    assert.equal(shellWord('claude-code-acp'), 'claude-code-acp');
    assert.equal(shellWord("it's"), "'it'\\''s'");
    assert.equal(shellWord(''), "''");
    assert.equal(transportLabel(ssh({ user: 'me', port: 2222 })), 'me@build-1:2222 over SSH');
    assert.match(remoteNotice('Claude', ssh()), /^Claude runs on build-1 over SSH, in \/srv\/app: .*own tools/);
  });
});
