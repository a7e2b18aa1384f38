import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import type { AuthMethodInfo } from '../../src/host/auth/auth';
import { agentText, api, useScriptedAgent } from './helpers';

const secret = 'sk-test-5ecret-value-42';

describe('authentication', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(() => sb.setAuthPrompter(undefined));
  after(async () => { await sb.stopAll(); });

  it('auth_required, then an agent login (authenticate), then session/new is retried', async () => {
    const agent = await useScriptedAgent('authRequired');
    const offered: string[] = [];
    sb.setAuthPrompter({
      pickMethod: (_name, methods) => {
        offered.push(...methods.map((m) => `${m.id}:${m.type ?? 'agent'}`));
        return Promise.resolve(methods.find((m) => m.id === 'oauth'));
      },
      askValue: () => Promise.resolve(undefined),
    });
    const id = await sb.newSession(agent);
    assert.deepEqual(offered, ['oauth:agent', 'agent-typed:agent', 'api-key:env_var', 'tui-login:terminal']);
    await sb.prompt(id, 'hi');
    assert.match(agentText(sb, id), /authenticated/);
  });

  it('a prompt answered auth_required (the login expired) offers the login, then the prompt is sent again', async () => {
    const agent = await useScriptedAgent('authExpires');
    let logins = 0;
    sb.setAuthPrompter({
      pickMethod: (_name, methods) => { logins++; return Promise.resolve(methods.find((m) => m.id === 'oauth')); },
      askValue: () => Promise.resolve(undefined),
    });
    const id = await sb.newSession(agent);
    assert.equal(logins, 1, 'session/new needed the login');
    await sb.prompt(id, 'first');
    assert.equal(logins, 1);
    await sb.prompt(id, 'second');
    assert.equal(logins, 2, 'the second prompt found the login expired');
    assert.match(agentText(sb, id), /answer to first[\s\S]*answer to second/);
    const snap = sb.snapshot(id);
    assert.equal(snap?.entries.filter((e) => e.kind === 'user').length, 2, 'the prompt shows once');
    assert.ok(!snap?.entries.some((e) => e.kind === 'notice' && e.level === 'error'), 'no error shown');
    // a cancelled login: the turn ends with a visible error that offers Retry
    sb.setAuthPrompter({ pickMethod: () => Promise.resolve(undefined), askValue: () => Promise.resolve(undefined) });
    await sb.prompt(id, 'third');
    const last = sb.snapshot(id)?.entries.at(-1);
    assert.ok(last?.kind === 'notice' && /Login to .* was cancelled/.test(last.text), `the last entry is ${JSON.stringify(last)}`);
  });

  it('an env_var login lands in SecretStorage, restarts the agent with it, and is in no settings file or log', async () => {
    const agent = await useScriptedAgent('authEnvVar');
    const asked: string[] = [];
    sb.setAuthPrompter({
      pickMethod: (_name, methods) => Promise.resolve(methods.find((m): m is AuthMethodInfo => m.type === 'env_var')),
      askValue: (_name, _method, v) => {
        asked.push(`${v.name}${v.secret ? ' (secret)' : ''}${v.optional ? ' (optional)' : ''}`);
        return Promise.resolve(v.name === 'SCRIPTED_AGENT_API_KEY' ? secret : '');
      },
    });
    const id = await sb.newSession(agent);
    assert.deepEqual(asked, ['SCRIPTED_AGENT_API_KEY (secret)', 'SCRIPTED_AGENT_ORG (optional)']);
    await sb.prompt(id, 'hi');
    assert.match(agentText(sb, id), /authenticated/);
    assert.deepEqual(await sb.storedAgentEnv(agent), { SCRIPTED_AGENT_API_KEY: secret });
    const settingsFile = path.join(sb.globalStorageDir(), '..', '..', 'settings.json');
    assert.ok(fs.existsSync(settingsFile), `the user settings are at ${settingsFile}`);
    assert.ok(fs.readFileSync(settingsFile, 'utf8').includes('"switchboard.agents"'), 'it is the file the agents were written to');
    assert.ok(!fs.readFileSync(settingsFile, 'utf8').includes(secret), 'the user settings hold the secret');
    // the agent log (with the ACP trace at Trace level): also what an agent echoing the key would write
    const host = sb.session(id)?.host;
    assert.ok(host);
    host.log.info(`echo ${secret}`);
    host.log.error(`failed with ${JSON.stringify({ key: secret })}`);
    await new Promise((r) => setTimeout(r, 1500)); // the log files are flushed asynchronously
    const files = walk(path.dirname(sb.logDir())).filter((f) => f.endsWith('.log'));
    const agentLog = files.filter((f) => f.includes('Scripted authEnvVar'));
    assert.ok(agentLog.length, `the agent log file is among ${files.join(', ')}`);
    for (const f of files) assert.ok(!fs.readFileSync(f, 'utf8').includes(secret), `${f} holds the secret`);
    assert.ok(agentLog.some((f) => fs.readFileSync(f, 'utf8').includes('echo ***')), 'the value is masked');
  });

  it('a terminal login runs the agent with the method\'s args and env in a terminal, then the restarted agent is authenticated', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-login-')), 'login.json');
    const agent = await useScriptedAgent('authTerminal', { SCRIPTED_AGENT_LOGIN_FILE: file });
    const offered: string[] = [];
    sb.setAuthPrompter({
      pickMethod: (_name, methods) => {
        offered.push(...methods.map((m) => `${m.id}:${m.type ?? 'agent'}`));
        return Promise.resolve(methods.find((m): m is AuthMethodInfo => m.type === 'terminal'));
      },
      askValue: () => Promise.resolve(undefined),
    });
    // resolves only after the terminal closed with exit code 0, the agent restarted and session/new was retried
    const id = await sb.newSession(agent);
    assert.deepEqual(offered, ['tui-login:terminal']);
    assert.ok(fs.existsSync(file), `the login in the terminal wrote ${file}`);
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { env: { LOGIN_MODE: 'tui' } }, 'the method\'s env reached the login');
    await sb.prompt(id, 'hi');
    assert.match(agentText(sb, id), /authenticated/);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
