import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { choose, useTestClient } from './acpTestClient';

// Prompt turns of the scripted scenarios, each served in-process and driven by the SDK's client side.

describe('demoAgent / scripted turns', () => {
  const open = useTestClient();

  it('streams text in chunks with messageIds, a thought and a content block (streaming.json)', async () => {
    const c = open('streaming');
    const { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'hi there'), 'end_turn');
    assert.equal(c.text('agent_thought_chunk'), 'Let me think about this carefully before answering.');
    assert.equal(c.updatesOf('agent_thought_chunk').length, 4);
    const messages = c.updatesOf('agent_message_chunk');
    const first = messages.filter((u) => u.messageId === 'msg-1' && u.content.type === 'text');
    assert.equal(first.length, 5);
    assert.equal(first.map((u) => (u.content.type === 'text' ? u.content.text : '')).join(''), '# Hello\n\nThis is **streamed** Markdown, in five chunks.');
    assert.ok(messages.some((u) => u.content.type === 'resource_link' && u.content.name === 'README.md'));
    assert.equal(messages.filter((u) => u.messageId === undefined).length, 3);
    assert.ok(messages.some((u) => u.messageId === 'msg-echo-1' && u.content.type === 'text' && u.content.text === 'You said: hi there'));
  });

  it('streams slowly: 20 chunks about 100 ms apart (slowStream.json)', async function () {
    this.timeout(10000);
    const c = open('slowStream');
    const initStarted = Date.now();
    const { sessionId } = await c.start();
    assert.ok(Date.now() - initStarted >= 450, 'initialize is delayed by 500 ms');
    const times: number[] = [];
    const started = Date.now();
    const turn = c.prompt(sessionId, 'go');
    await c.waitFor(() => {
      const n = c.updatesOf('agent_message_chunk').length;
      if (n > times.length) {
        times.push(Date.now() - started);
      }
      return n >= 20;
    }, '20 chunks', 8000);
    assert.equal(await turn, 'end_turn');
    assert.ok(times[times.length - 1] - times[0] >= 1500, `chunks spread over ${times[times.length - 1] - times[0]} ms`);
    assert.equal(c.updatesOf('agent_thought_chunk').length, 3);
  });

  it('sends every tool kind and content type (toolCalls.json)', async () => {
    const c = open('toolCalls');
    const { sessionId } = await c.start('/w');
    assert.equal(await c.prompt(sessionId, 'tools'), 'end_turn');
    const calls = c.updatesOf('tool_call');
    const kinds = new Set(calls.map((t) => t.kind ?? 'none'));
    for (const kind of ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other', 'none']) {
      assert.ok(kinds.has(kind as acp.ToolKind), `missing kind ${kind}`);
    }
    const newFile = calls.find((t) => t.toolCallId === 'tc-new')?.content?.[0];
    assert.deepEqual(newFile, { type: 'diff', path: '/w/notes.md', oldText: null, newText: '# Notes\n' });
    const updates = c.updatesOf('tool_call_update');
    const terminal = updates.find((u) => u.toolCallId === 'tc-execute' && u.content?.[0]?.type === 'terminal');
    assert.deepEqual(terminal?.content, [{ type: 'terminal', terminalId: 'term-1' }]);
    assert.ok(updates.some((u) => u.toolCallId === 'tc-execute' && u.status === 'completed'));
    assert.equal(updates.find((u) => u.toolCallId === 'tc-search' && u.locations)?.locations?.length, 2);
    assert.ok(updates.some((u) => u.toolCallId === 'tc-never-announced'));
    assert.deepEqual(calls.find((t) => t.toolCallId === 'tc-read')?.locations, [{ path: '/w/src/main.ts', line: 1 }]);
  });

  it('branches on the permission outcome (permission.json)', async () => {
    let c = open('permission');
    let { sessionId } = await c.start();
    assert.equal(await c.prompt(sessionId, 'edit please'), 'end_turn');
    const request = c.requestsOf('session/request_permission')[0] as acp.RequestPermissionRequest;
    assert.equal(request.toolCall.toolCallId, 'edit-1');
    assert.deepEqual(request.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once']);
    assert.match(c.text(), /\[permission\] allow: .*Edit applied\./s);
    await c.close();

    c = open('permission', { permission: choose('reject') });
    ({ sessionId } = await c.start());
    await c.prompt(sessionId, 'edit please');
    assert.match(c.text(), /Edit skipped\./);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'edit-1' && u.status === 'failed'));
  });

  it('switches mode after an "exit plan mode" permission (permission.json)', async () => {
    const c = open('permission', { permission: choose('code') });
    const { sessionId, modes } = await c.start();
    assert.equal(modes?.currentModeId, 'plan');
    await c.prompt(sessionId, 'exit plan mode');
    assert.deepEqual(c.updatesOf('current_mode_update').map((u) => u.currentModeId), ['code']);
    assert.match(c.text(), /Mode is now code\./);
  });

  it('reads and writes files through the client, echoing results (fs.json)', async () => {
    const c = open('fs', { files: { '/work/project/notes.txt': 'l1\nl2\nl3\nl4' } });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'files');
    const text = c.text();
    assert.match(text, /\[whole\] ok: l1\nl2\nl3\nl4/);
    assert.match(text, /\[window\] ok: l2\nl3\n/);
    assert.match(text, /\[missing\] error: -32002 Resource not found/);
    assert.match(text, /\[write\] ok: \/work\/project\/out\.txt/);
    assert.match(text, /\[readBack\] ok: written by the agent/);
    assert.equal(c.files.get('/work/project/out.txt'), 'written by the agent\n');
    assert.deepEqual(c.requestsOf('fs/read_text_file')[1], { sessionId, path: '/work/project/notes.txt', line: 2, limit: 2 });
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'write-1' && u.status === 'completed'));
  });

  it('runs a terminal: create → wait_for_exit → output → release (terminal.json)', async () => {
    const c = open('terminal', { terminal: { output: 'tests passed\n', exitCode: 0 } });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'run');
    assert.deepEqual(c.requests.map((r) => r.method), ['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    const create = c.requestsOf('terminal/create')[0] as acp.CreateTerminalRequest;
    assert.deepEqual({ ...create, sessionId: undefined }, {
      sessionId: undefined, command: 'npm', args: ['test', '--coverage'], env: [{ name: 'CI', value: '1' }], cwd: '/work/project', outputByteLimit: 1024,
    });
    const echo = /\[run\] exited: (.*)\n/.exec(c.text());
    assert.ok(echo);
    const summary: unknown = JSON.parse(echo[1]);
    assert.deepEqual(summary, {
      terminalId: 'term-1', exitStatus: { exitCode: 0, signal: null }, output: 'tests passed\n', truncated: false, timedOut: false, errors: [],
    });
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'run-1' && u.status === 'completed'));
  });

  it('kills a terminal that outlives its timeout (terminal.json)', async () => {
    const c = open('terminal', { terminal: { exitAfterMs: null } });
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'timeout');
    assert.deepEqual(c.requests.map((r) => r.method), ['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/output', 'terminal/release']);
    assert.match(c.text(), /\[slow\] timeout: .*"timedOut":true/);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'slow-cmd' && u.status === 'failed'));
  });

  it('gets errors for a released terminal (terminal.json)', async () => {
    const c = open('terminal');
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'released');
    const echo = /\[afterRelease\] exited: (.*)\n/.exec(c.text());
    assert.ok(echo);
    const summary = JSON.parse(echo[1]) as { errors: string[] };
    assert.equal(summary.errors.length, 2);
    assert.match(summary.errors[0], /^output: -32602/);
  });

  it('replaces the whole plan each time (plan.json)', async () => {
    const c = open('plan');
    const { sessionId } = await c.start();
    await c.prompt(sessionId, 'plan');
    const plans = c.updatesOf('plan');
    assert.deepEqual(plans.map((p) => p.entries.length), [3, 4, 2]);
    assert.ok(plans[2].entries.every((e) => e.status === 'completed'));
  });

  it('sends commands after session/new and runs slash commands (commands.json)', async () => {
    const c = open('commands');
    const { sessionId } = await c.start();
    await c.waitFor(() => c.updatesOf('available_commands_update').length === 1, 'commands');
    assert.deepEqual(c.updatesOf('available_commands_update')[0].availableCommands.map((x) => x.name), ['echo', 'plan']);
    await c.prompt(sessionId, '/echo hello world');
    assert.equal(c.text(), 'echo: hello world');
    await c.prompt(sessionId, '/more-commands');
    assert.equal(c.updatesOf('available_commands_update')[1].availableCommands.length, 3);
    await c.prompt(sessionId, 'plain');
    assert.match(c.text(), /not a command: plain$/);
  });

  for (const reason of ['max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const) {
    it(`ends a turn with stopReason ${reason} (stopReasons.json)`, async () => {
      const c = open('stopReasons');
      const { sessionId } = await c.start();
      assert.equal(await c.prompt(sessionId, reason), reason);
    });
  }

  it('answers a prompt with a JSON-RPC error, sends late updates, never answers a hang (stopReasons.json)', async () => {
    const c = open('stopReasons');
    const { sessionId } = await c.start();
    await assert.rejects(c.prompt(sessionId, 'error'), (error: unknown) => {
      assert.ok(error instanceof acp.RequestError);
      assert.equal(error.code, -32603);
      assert.deepEqual(error.data, { retryAfterMs: 1000 });
      return true;
    });
    assert.equal(await c.prompt(sessionId, 'late'), 'end_turn');
    assert.doesNotMatch(c.text(), /late update/);
    await c.waitFor(() => c.text().includes('late update after the response'), 'late update');
    const hang = c.prompt(sessionId, 'hang');
    const outcome = await Promise.race([hang.then(() => 'answered'), new Promise((r) => setTimeout(() => r('pending'), 300))]);
    assert.equal(outcome, 'pending');
    hang.catch(() => undefined);
  });

  it('ignores session/cancel when told to (stopReasons.json)', async () => {
    const c = open('stopReasons');
    const { sessionId } = await c.start();
    const turn = c.prompt(sessionId, 'stubborn');
    await c.waitFor(() => c.updatesOf('agent_message_chunk').length > 0, 'first chunk');
    await c.cancel(sessionId);
    assert.equal(await turn, 'end_turn');
    assert.equal(c.text(), 'I ignore cancellation and keep streaming until the very end.');
  });
});
