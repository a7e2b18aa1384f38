import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type CandidateKind, type CommandFileSystem, CommandNotFoundError, getEnvValue, pathDirectories, resolveCommand,
} from '../../../src/agents/resolveCommand';
import { tempDir } from './processFixtures';

/** A fake file system for Windows lookups: exact (case-insensitive) paths → kind. */
function fakeFs(files: Record<string, CandidateKind>): CommandFileSystem & { probed: string[] } {
  const probed: string[] = [];
  const lower = new Map(Object.entries(files).map(([k, v]) => [k.toLowerCase(), v]));
  return { probed, probe: async (file) => { probed.push(file); return lower.get(file.toLowerCase()) ?? 'missing'; } };
}

async function rejection(promise: Promise<unknown>): Promise<CommandNotFoundError> {
  try {
    await promise;
  } catch (ex) {
    assert.ok(CommandNotFoundError.is(ex), String(ex));
    return ex;
  }
  return assert.fail('expected CommandNotFoundError');
}

describe('resolveCommand (POSIX)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let bin1: string;
  let bin2: string;
  beforeEach(() => {
    tmp = tempDir();
    bin1 = path.join(tmp.dir, 'bin1');
    bin2 = path.join(tmp.dir, 'bin2');
    fs.mkdirSync(bin1);
    fs.mkdirSync(bin2);
    fs.writeFileSync(path.join(bin1, 'agent'), '#!/bin/sh\n', { mode: 0o644 }); // shadowing, not executable
    fs.writeFileSync(path.join(bin2, 'agent'), '#!/bin/sh\n', { mode: 0o755 });
    fs.mkdirSync(path.join(bin1, 'dir-agent'));
  });
  afterEach(() => tmp.remove());

  it('finds the first executable on PATH, skipping non-executable files', async () => {
    const resolved = await resolveCommand('agent', { cwd: '/', env: { PATH: `${bin1}:${bin2}` }, platform: 'linux' });
    assert.equal(resolved.path, path.join(bin2, 'agent'));
    assert.deepEqual(resolved.searchedPath, [bin1, bin2]);
    assert.equal(resolved.isBatchFile, false);
  });

  it('names the command and every directory searched when it is missing', async () => {
    const error = await rejection(resolveCommand('claude-code-acp', { cwd: '/', env: { PATH: `${bin1}:${bin2}::relative/dir:${bin1}` }, platform: 'linux', hint: 'Install it.' }));
    assert.equal(error.reason, 'notFound');
    assert.equal(error.command, 'claude-code-acp');
    assert.deepEqual(error.searchedPath, [bin1, bin2]);
    assert.equal(error.message, `Cannot find 'claude-code-acp' on PATH. Searched: ${bin1}, ${bin2}. Install it.`);
  });

  it('says so when PATH is empty', async () => {
    const error = await rejection(resolveCommand('x', { cwd: '/', env: {}, platform: 'linux' }));
    assert.match(error.message, /PATH is empty/);
  });

  it('reports a found but non-executable file or a directory', async () => {
    const error = await rejection(resolveCommand('agent', { cwd: '/', env: { PATH: bin1 }, platform: 'linux' }));
    assert.equal(error.reason, 'notExecutable');
    assert.equal(error.candidate, path.join(bin1, 'agent'));
    assert.match(error.message, /is not executable \(chmod \+x it\)/);
    const dirError = await rejection(resolveCommand('dir-agent', { cwd: '/', env: { PATH: bin1 }, platform: 'linux' }));
    assert.match(dirError.message, /is a directory/);
  });

  it('resolves relative paths against cwd and ~/ against the home directory, without searching PATH', async () => {
    const relative = await resolveCommand('./bin2/agent', { cwd: tmp.dir, env: { PATH: bin1 }, platform: 'linux' });
    assert.equal(relative.path, path.join(bin2, 'agent'));
    assert.deepEqual(relative.searchedPath, []);
    const home = await resolveCommand('~/bin2/agent', { cwd: '/', env: {}, platform: 'linux', homeDir: tmp.dir });
    assert.equal(home.path, path.join(bin2, 'agent'));
    const absolute = await resolveCommand(path.join(bin2, 'agent'), { cwd: '/', env: {}, platform: 'linux' });
    assert.equal(absolute.path, path.join(bin2, 'agent'));
  });

  it('reports a missing path with what it resolved to', async () => {
    const error = await rejection(resolveCommand('./nope/agent', { cwd: tmp.dir, env: {}, platform: 'linux' }));
    assert.equal(error.message, `Cannot find './nope/agent' (${path.join(tmp.dir, 'nope/agent')}): no such file.`);
  });
});

describe('resolveCommand (Windows, fake file system)', () => {
  const env = { Path: 'C:\\Program Files\\nodejs;"C:\\Users\\me\\AppData\\Roaming\\npm"', PATHEXT: '.COM;.EXE;.BAT;.CMD' };

  it('tries PATHEXT extensions and finds an npm .cmd shim', async () => {
    const fileSystem = fakeFs({ 'C:\\Program Files\\nodejs\\npx.cmd': 'executable' });
    const resolved = await resolveCommand('npx', { cwd: 'C:\\work', env, platform: 'win32', fileSystem });
    assert.equal(resolved.path, 'C:\\Program Files\\nodejs\\npx.cmd');
    assert.equal(resolved.isBatchFile, true);
    assert.deepEqual(fileSystem.probed.slice(0, 4), ['.com', '.exe', '.bat', '.cmd'].map((e) => `C:\\Program Files\\nodejs\\npx${e}`));
  });

  it('prefers an earlier PATH directory and unquotes quoted entries', async () => {
    const fileSystem = fakeFs({ 'C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd': 'executable' });
    const resolved = await resolveCommand('claude', { cwd: 'C:\\work', env, platform: 'win32', fileSystem });
    assert.equal(resolved.path, 'C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd');
  });

  it('uses a given executable extension as is, and never searches the working directory', async () => {
    const fileSystem = fakeFs({ 'C:\\work\\gemini.cmd': 'executable', 'C:\\Program Files\\nodejs\\node.exe': 'executable' });
    const node = await resolveCommand('node.exe', { cwd: 'C:\\work', env, platform: 'win32', fileSystem });
    assert.equal(node.path, 'C:\\Program Files\\nodejs\\node.exe');
    const error = await rejection(resolveCommand('gemini', { cwd: 'C:\\work', env, platform: 'win32', fileSystem }));
    assert.match(error.message, /^Cannot find 'gemini' on PATH \(tried \.com, \.exe, \.bat, \.cmd\)\. Searched: C:\\Program Files\\nodejs; C:\\Users\\me\\AppData\\Roaming\\npm\./);
  });

  it('resolves backslash-relative paths against cwd', async () => {
    const fileSystem = fakeFs({ 'C:\\work\\tools\\agent.bat': 'executable' });
    const resolved = await resolveCommand('tools\\agent', { cwd: 'C:\\work', env, platform: 'win32', fileSystem });
    assert.equal(resolved.path, 'C:\\work\\tools\\agent.bat');
  });

  it('reads environment names case-insensitively on Windows only', () => {
    assert.equal(getEnvValue({ Path: 'x' }, 'PATH', 'win32'), 'x');
    assert.equal(getEnvValue({ Path: 'x' }, 'PATH', 'linux'), undefined);
    assert.deepEqual(pathDirectories({ PATH: 'C:\\a;;C:\\a;rel' }, 'win32'), ['C:\\a']);
  });
});
