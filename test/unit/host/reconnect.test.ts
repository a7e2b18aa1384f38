import * as assert from 'node:assert/strict';
import { AgentExitedError } from '../../../src/agents/agentErrors';
import type { AgentDefinition } from '../../../src/agents/agentDefinition';
import type { AgentHost } from '../../../src/host/agentHost';
import type { AgentSession } from '../../../src/host/agentSession';
import { isConnectionLoss, reconnectDelayMs, Reconnector } from '../../../src/host/lifecycle/reconnect';

const def: AgentDefinition = { id: 'far', name: 'Far', command: '', args: [], env: {}, transport: { type: 'websocket', url: 'ws://127.0.0.1:1/', headers: [], cwd: '/w' } };
const log = { info: () => undefined, warn: () => undefined };
function host(d: AgentDefinition, exit: { code?: number | null; lost?: string; requested?: boolean }): AgentHost {
  const error = new AgentExitedError({ agentName: d.name, code: exit.code ?? null, signal: null, stderrTail: [], requested: exit.requested ?? false, ...(exit.lost ? { lost: exit.lost } : {}) });
  return { definition: d, cwd: '/w', log, exit: { code: exit.code ?? null, signal: null, requested: exit.requested ?? false, stderrTail: [], error } } as unknown as AgentHost;
}
function session(statuses: string[]): AgentSession {
  return { thread: { setStatus: (status: string, error?: string) => statuses.push(`${status}: ${error ?? ''}`) } } as unknown as AgentSession;
}

describe('Reconnector (src/host/lifecycle/reconnect.ts)', () => {
  it('tries at once, then every half second for about a minute, then every 5 s', () => {
    assert.deepEqual([1, 2, 3, 60, 120, 121, 1000].map(reconnectDelayMs), [0, 250, 500, 500, 500, 5000, 5000]);
  });

  it('a lost connection is reconnected; a crash, a stop, a local agent and an agent\'s own ssh exit code are not', () => {
    assert.equal(isConnectionLoss(host(def, { lost: 'ws://x closed' })), true);
    assert.equal(isConnectionLoss(host(def, { lost: 'ws://x closed', requested: true })), false);
    const ssh: AgentDefinition = { ...def, transport: { type: 'ssh', host: 'h', cwd: '/w', options: [] } };
    assert.equal(isConnectionLoss(host(ssh, { code: 255 })), true);
    assert.equal(isConnectionLoss(host(ssh, { code: 1 })), false);
    assert.equal(isConnectionLoss(host({ ...def, transport: undefined }, { code: 1 })), false);
  });

  it('shows each attempt and the next try, goes on until an attempt connects, and stops when cancelled or when no session is left', async () => {
    const statuses: string[] = [];
    const sessions = [session(statuses)];
    let attempts = 0;
    const waits: number[] = [];
    const r = new Reconnector({
      sessionsOf: () => sessions,
      attempt: () => (++attempts < 4 ? Promise.reject(new Error(`Could not connect to agent 'Far': refused ${attempts}.`)) : Promise.resolve(host(def, {}))),
      sleep: (ms) => { waits.push(ms); return Promise.resolve(); },
    });
    r.start(host(def, { lost: 'ws://127.0.0.1:1/ closed (code 1006)' }));
    assert.equal(r.isReconnecting('far'), true);
    r.start(host(def, { lost: 'again' })); // once per agent
    for (let i = 0; i < 50 && r.isReconnecting('far'); i++) await new Promise((res) => setImmediate(res));
    assert.equal(attempts, 4);
    assert.deepEqual(waits, [0, 250, 500, 500]);
    assert.match(statuses[0], /^reconnecting: Agent 'Far' lost its connection: ws:\/\/127\.0\.0\.1:1\/ closed \(code 1006\)\. Reconnecting: attempt 1, trying now\.$/);
    assert.match(statuses[3], /^reconnecting: Could not connect to agent 'Far': refused 3\. Reconnecting: attempt 4, next try in 500 ms\.$/);

    let more = 0;
    const never = new Reconnector({ sessionsOf: () => sessions, attempt: () => { more++; return Promise.reject(new Error('down')); }, sleep: () => new Promise((res) => setTimeout(res, 5)) });
    never.start(host(def, { lost: 'x' }));
    await new Promise((res) => setTimeout(res, 30));
    never.cancelAll();
    const after = more;
    await new Promise((res) => setTimeout(res, 30));
    assert.ok(after > 0 && more === after, 'no attempt after the cancel');
    assert.equal(never.isReconnecting('far'), false);

    let tried = 0;
    const alone = new Reconnector({ sessionsOf: () => [], attempt: () => { tried++; return Promise.reject(new Error('x')); }, sleep: () => Promise.resolve() });
    alone.start(host(def, { lost: 'x' }));
    await new Promise((res) => setImmediate(res));
    assert.equal(tried, 0, 'no session, no attempt');
  });
});
