import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';

// Malformed traffic, crashes, huge messages and hangs, served in-process. (subprocess.test.ts runs
// the same scenarios as real processes.)

/** Runs `fn` with console.error silenced (the SDK logs dropped messages there); returns what was logged. */
async function quietly(fn: () => Promise<void>): Promise<string[]> {
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    logged.push(args.map(String).join(' '));
  };
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return logged;
}

describe('demoAgent / scripted robustness', () => {
  const open = useTestClient();

  it('sends unknown update kinds the SDK client drops, and the session goes on (unknownUpdates.json)', async () => {
    const c = open('unknownUpdates');
    const { sessionId } = await c.start();
    const logged = await quietly(async () => {
      assert.equal(await c.prompt(sessionId, 'go'), 'end_turn');
    });
    assert.equal(c.text('agent_message_chunk', sessionId), 'before after');
    const kinds = c.wire.flatMap((w) => {
      const update = 'json' in w ? (w.json.params as { update?: { sessionUpdate?: string } } | undefined)?.update : undefined;
      return update?.sessionUpdate ? [update.sessionUpdate] : [];
    });
    for (const kind of ['x_future_update_kind', '_vendor_custom_update', 'plan_update']) {
      assert.ok(kinds.includes(kind), `${kind} not sent`);
    }
    assert.equal(c.text('agent_message_chunk', 'no-such-session'), 'for another session');
    assert.ok(logged.some((l) => l.includes('Error handling notification')), 'the SDK client rejects unknown kinds');
  });

  it('sends unknown methods (-32601), notifications and string / big ids, echoing the answers (clientRequests.json)', async () => {
    const c = open('clientRequests', { files: { '/work/project/notes.txt': 'notes' } });
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'requests'), 'end_turn');
    const text = c.text();
    assert.match(text, /\[unknown\] error: -32601 "Method not found": editor\/doSomethingUnknown/);
    assert.match(text, /\[extension\] error: -32601/);
    assert.match(text, /\[stringId\] ok: \{"outcome":\{"outcome":"selected","optionId":"ok"\}\}/);
    assert.match(text, /\[bigId\] ok: \{"content":"notes"\}/);
    const stringRequest = c.wire.find((w) => 'json' in w && w.json.id === 'perm-7f3a');
    assert.ok(stringRequest, 'request with a string id on the wire');
    assert.match(c.stderr.join(''), /← response #"perm-7f3a" ok/);
    assert.match(c.stderr.join(''), /← response #9007199254740991 ok/);
  });

  it('writes a non-JSON line, an array, a split message and a stray response; the turn completes (nonJsonLine.json)', async () => {
    const c = open('nonJsonLine');
    const { sessionId } = await c.start();
    await quietly(async () => {
      assert.equal(await c.prompt(sessionId, 'go'), 'end_turn');
    });
    assert.ok(c.wire.some((w) => 'raw' in w && w.raw.startsWith('Debugger listening')));
    assert.equal(c.text(), 'before split after');
    const log = c.stderr.join('');
    assert.match(log, /← response #null error -32700/, 'the SDK client answers a parse error');
    assert.match(log, /← response #null error -32600/, 'and an invalid request for the array');
  });

  it('crashes during initialize: stderr lines, exit code 3, no answer (crashInitialize.json)', async () => {
    const c = open('crashInitialize');
    await assert.rejects(c.initialize());
    assert.deepEqual(c.exits, [{ code: 3 }]);
    assert.match(c.stderr.join(''), /cannot find module 'missing-dependency'/);
    assert.equal(c.wire.length, 0);
  });

  it('crashes by signal during session/new (crashSessionNew.json)', async () => {
    const c = open('crashSessionNew');
    await c.initialize();
    await assert.rejects(c.agent.request(acp.methods.agent.session.new, { cwd: '/w', mcpServers: [] }));
    assert.deepEqual(c.exits, [{ signal: 'SIGKILL' }]);
    assert.match(c.stderr.join(''), /fatal: out of memory/);
  });

  it('crashes mid-turn with a permission request pending (crashMidTurn.json)', async () => {
    const c = open('crashMidTurn', { permission: () => new Promise(() => undefined) });
    const { sessionId } = await c.start();
    await assert.rejects(c.prompt(sessionId, 'go'));
    assert.equal(c.requestsOf('session/request_permission').length, 1);
    assert.deepEqual(c.exits, [{ code: 1 }]);
    assert.match(c.stderr.join(''), /panic: something went terribly wrong/);
    assert.equal(c.text(), 'Working on it...');
  });

  it('prints a value of its environment to stderr, then exits (secretCrash.json, the {{env.NAME}} template)', async () => {
    const c = open('secretCrash', { env: { MY_API_TOKEN: 'the-value-of-the-env' } });
    const { sessionId } = await c.start();
    await assert.rejects(c.prompt(sessionId, 'crash now'));
    assert.deepEqual(c.exits, [{ code: 1 }]);
    assert.match(c.stderr.join(''), /config: MY_API_TOKEN=the-value-of-the-env\n.*refused the token the-value-of-the-env \(Authorization: Bearer the-value-of-the-env\)/);
  });

  it('delivers a 10 MB message (hugeMessage.json)', async function () {
    this.timeout(20000);
    const c = open('hugeMessage');
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'big'), 'end_turn');
    const [huge, after] = c.updatesOf('agent_message_chunk');
    assert.ok(huge.content.type === 'text');
    assert.equal(huge.content.text.length, 10_000_000);
    assert.ok(after.content.type === 'text' && after.content.text === 'after the huge message');
  });

  it('sends a ~70 MB message that breaks the SDK client at its 32 MiB cap (overCapMessage.json)', async function () {
    this.timeout(30000);
    const c = open('overCapMessage');
    const { sessionId } = await c.start();
    await assert.rejects(c.prompt(sessionId, 'too big'), (error: unknown) => {
      assert.ok(error instanceof acp.MessageTooLargeError, String(error));
      return true;
    });
    assert.equal(acp.DEFAULT_MAX_MESSAGE_BYTES, 32 * 1024 * 1024);
  });

  it('never answers initialize (hangInitialize.json)', async () => {
    const c = open('hangInitialize');
    const init = c.initialize();
    init.catch(() => undefined);
    const outcome = await Promise.race([init.then(() => 'answered'), new Promise((r) => setTimeout(() => r('pending'), 300))]);
    assert.equal(outcome, 'pending');
    assert.match(c.stderr.join(''), /initializing\.\.\. \(forever\)/);
  });

  it('writes stderr at start and during a turn, never to stdout (stderrCapture.json)', async () => {
    const c = open('stderrCapture');
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'go');
    const stderr = c.stderr.join('');
    assert.ok(stderr.startsWith('stderr line 1: agent starting\n'));
    assert.match(stderr, /\u001b\[33mwarning/);
    assert.match(stderr, /stderr during the turn/);
    assert.ok(c.wire.every((w) => 'json' in w), 'stdout carries protocol only');
  });

  it('logs one line per received message to stderr', async () => {
    const c = open('streaming');
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'hello');
    await c.cancel(sessionId);
    await c.waitFor(() => c.stderr.join('').includes('session/cancel'), 'cancel logged');
    const log = c.stderr.join('');
    assert.match(log, /\[streaming\] ← #0 initialize/);
    assert.match(log, /\[streaming\] ← #1 session\/new/);
    assert.match(log, new RegExp(`\\[streaming\\] ← #2 session/prompt ${sessionId} "hello"`));
    assert.match(log, /← session\/cancel/);
  });
});
