/**
 * ACP v2's updates as v1's (src/acp/v2/v2Updates.ts), turns (v2Turns.ts), shapes and diffs (v2Shapes.ts, v2Diff.ts):
 * the upsert rules of the v2 draft, one case each.
 */
import * as assert from 'node:assert/strict';
import { AcpError } from '../../../src/acp/errors';
import type * as v2 from '../../../src/acp/schema/v2/types.gen';
import { configOptionsV1, initializeParamsV2, initializeResponseV1, mcpServersV2 } from '../../../src/acp/v2/v2Shapes';
import { V2Turns } from '../../../src/acp/v2/v2Turns';
import { V2Updates } from '../../../src/acp/v2/v2Updates';

const u = (update: Record<string, unknown>) => update as unknown as v2.SessionUpdate;

describe('ACP v2 updates as the client reads them', () => {
  it('a first tool_call_update creates the call with v2 defaults; later ones patch, null resets, arrays replace', () => {
    const t = new V2Updates();
    const first = t.translate('s', u({ sessionUpdate: 'tool_call_update', toolCallId: 'a', name: 'grep' })).updates[0];
    assert.deepEqual(first, { sessionUpdate: 'tool_call', toolCallId: 'a', title: 'grep', kind: 'other', status: 'pending' });
    const second = t.translate('s', u({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'paused', kind: null, locations: [] })).updates[0];
    assert.deepEqual(second, { sessionUpdate: 'tool_call_update', toolCallId: 'a', kind: 'other', status: 'in_progress', locations: [] });
    const unknownKind = t.translate('s', u({ sessionUpdate: 'tool_call_update', toolCallId: 'a', kind: 'teleport', status: 'mystery' })).updates[0];
    assert.deepEqual(unknownKind, { sessionUpdate: 'tool_call_update', toolCallId: 'a', kind: 'other', status: 'pending' });
  });

  it('content chunks append to the call (one it never announced is created first); content: null clears', () => {
    const t = new V2Updates();
    const text = (s: string) => ({ type: 'content', content: { type: 'text', text: s } });
    const created = t.translate('s', u({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 'b', content: text('one') })).updates;
    assert.deepEqual(created.map((x) => x.sessionUpdate), ['tool_call', 'tool_call_update']);
    const more = t.translate('s', u({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 'b', content: text('two') })).updates[0] as { content: unknown[] };
    assert.deepEqual(more.content, [text('one'), text('two')]);
    const cleared = t.translate('s', u({ sessionUpdate: 'tool_call_update', toolCallId: 'b', content: null })).updates[0] as { content: unknown[] };
    assert.deepEqual(cleared.content, []);
    const after = t.translate('s', u({ sessionUpdate: 'tool_call_content_chunk', toolCallId: 'b', content: text('three') })).updates[0] as { content: unknown[] };
    assert.deepEqual(after.content, [text('three')]);
  });

  it('a whole message after its chunks adds what they lacked; a rewrite of shown text is logged, not shown twice', () => {
    const t = new V2Updates();
    const chunk = (s: string) => t.translate('s', u({ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: s } }));
    chunk('Hel');
    chunk('lo');
    const whole = t.translate('s', u({ sessionUpdate: 'agent_message', messageId: 'm', content: [{ type: 'text', text: 'Hello there' }] }));
    assert.deepEqual(whole.updates, [{ sessionUpdate: 'agent_message_chunk', messageId: 'm', content: { type: 'text', text: ' there' } }]);
    const rewrite = t.translate('s', u({ sessionUpdate: 'agent_message', messageId: 'm', content: [{ type: 'text', text: 'Goodbye' }] }));
    assert.deepEqual(rewrite.updates, []);
    assert.equal(rewrite.events[0]?.type, 'log');
    // another kind's id space: a thought with the same id is another message
    const thought = t.translate('s', u({ sessionUpdate: 'agent_thought', messageId: 'm', content: [{ type: 'text', text: 'hmm' }] }));
    assert.deepEqual(thought.updates, [{ sessionUpdate: 'agent_thought_chunk', messageId: 'm', content: { type: 'text', text: 'hmm' } }]);
  });

  it('the echo of our prompt is not shown again, whether it comes before or after the answer; a replayed one is', () => {
    const t = new V2Updates();
    const echo = (id: string) => t.translate('s', u({ sessionUpdate: 'user_message', messageId: id, content: [{ type: 'text', text: 'hi' }] })).updates;
    t.promptSent('s');
    assert.deepEqual(echo('u1'), [], 'echo first');
    t.promptInserted('s', 'u1');
    t.promptSent('s');
    t.promptInserted('s', 'u2');
    assert.deepEqual(echo('u2'), [], 'answer first');
    assert.equal(echo('u0').length, 1, 'a message that is not ours (replay, another client) is shown');
    t.promptSent('s');
    t.promptFailed('s');
    assert.equal(echo('u3').length, 1, 'a prompt that failed is not echoed: the next message is not taken for it');
  });

  it('terminals: output replaces, chunks decode across a split character, exit and cancellability come out as events', () => {
    const t = new V2Updates();
    const b64 = (b: Buffer) => b.toString('base64');
    const bytes = Buffer.from('ok ✓\n');
    const e1 = t.translate('s', u({ sessionUpdate: 'terminal_update', terminalId: 't', command: 'make', capabilities: { cancel: {} } })).events[0];
    assert.deepEqual(e1, { type: 'terminal', sessionId: 's', terminalId: 't', command: 'make', cancellable: true });
    const a = t.translate('s', u({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64(bytes.subarray(0, 4)) })).events[0];
    const b = t.translate('s', u({ sessionUpdate: 'terminal_output_chunk', terminalId: 't', data: b64(bytes.subarray(4)) })).events[0];
    const text = (e: typeof a) => (e?.type === 'terminal' ? e.append ?? '' : '');
    assert.equal(text(a) + text(b), 'ok ✓\n');
    const replaced = t.translate('s', u({ sessionUpdate: 'terminal_update', terminalId: 't', output: { data: b64(Buffer.from('all')) }, exitStatus: { exitCode: -1 } })).events[0];
    assert.deepEqual(replaced, { type: 'terminal', sessionId: 's', terminalId: 't', output: 'all', exitStatus: { exitCode: -1, signal: null }, cancellable: false });
  });

  it('state updates carry the background list; other v1-shaped kinds pass through', () => {
    const t = new V2Updates();
    const state = t.translate('s', u({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'error', error: { code: 1, message: 'boom' }, background: [{ type: 'terminal', terminalId: 'x' }, { type: '_watch' }] }));
    assert.deepEqual(state.events, [{ type: 'state', sessionId: 's', state: 'idle', stopReason: 'error', error: { message: 'boom', code: 1 }, background: [{ type: 'terminal', id: 'x' }, { type: '_watch', id: '' }] }]);
    assert.deepEqual(state.updates, []);
    const usage = { sessionUpdate: 'usage_update', used: 1, size: 2 };
    assert.deepEqual(t.translate('s', u(usage)).updates, [usage]);
    const commands = t.translate('s', u({ sessionUpdate: 'available_commands_update', availableCommands: [{ type: 'command', name: 'go', description: 'Go' }, { type: '_x', name: 'y' }] })).updates[0] as { availableCommands: unknown[] };
    assert.deepEqual(commands.availableCommands, [{ name: 'go', description: 'Go' }]);
  });
});

describe('ACP v2 turns', () => {
  it('a turn ends at the first idle after running; a repeated idle before it does not; error rejects; close fails the rest', async () => {
    const turns = new V2Turns();
    const turn = turns.start('s');
    turns.onState('s', 'idle', 'end_turn', undefined); // a snapshot from before: not this turn's end
    const done = turn.acked();
    turns.onState('s', 'running', undefined, undefined);
    turns.onState('s', 'requires_action', undefined, undefined);
    turns.onState('s', 'idle', '_custom', undefined, { totalTokens: 3, inputTokens: 1, outputTokens: 2 });
    assert.deepEqual(await done, { stopReason: 'end_turn', usage: { totalTokens: 3, inputTokens: 1, outputTokens: 2 } });
    const failing = turns.start('s');
    const failed = failing.acked();
    turns.onState('s', 'running', undefined, undefined);
    turns.onState('s', 'idle', 'error', { message: 'Authentication required', code: -32000 });
    await assert.rejects(failed, (e: unknown) => AcpError.isAuthRequired(e) && /Authentication required/.test(e.message));
    const lax = turns.start('s');
    const laxDone = lax.acked();
    turns.onState('s', 'idle', 'cancelled', undefined); // an agent that never reports running: a stop reason after the answer
    assert.equal((await laxDone).stopReason, 'cancelled');
    const open = turns.start('s').acked();
    turns.close(new Error('gone'));
    await assert.rejects(open, /gone/);
  });
});

describe('ACP v2 shapes', () => {
  it('initialize offers v2 with the v1 fields kept, and reads a v2 answer as v1', () => {
    const params = initializeParamsV2({ protocolVersion: 1, clientInfo: { name: 'c', version: '1' }, clientCapabilities: { fs: { readTextFile: true }, terminal: true, auth: { terminal: true }, elicitation: { form: {} } } });
    assert.equal(params.protocolVersion, 2);
    assert.deepEqual(params.info, { name: 'c', version: '1' });
    assert.deepEqual(params.capabilities, { auth: { terminal: {} }, elicitation: { form: {} } });
    assert.ok(params.clientCapabilities, 'the v1 fields stay, for an agent that chooses v1');
    const answer = initializeResponseV1({ protocolVersion: 2, info: { name: 'a', version: '2' }, capabilities: { session: { prompt: { image: {} }, mcp: { http: {} }, delete: {} } }, authMethods: [{ type: 'agent', methodId: 'login', name: 'Log in' } as v2.AuthMethod] } as v2.InitializeResponse);
    assert.deepEqual(answer.agentInfo, { name: 'a', version: '2' });
    assert.deepEqual((answer.agentCapabilities as Record<string, unknown>).promptCapabilities, { image: true, audio: false, embeddedContext: false });
    assert.deepEqual((answer.agentCapabilities as Record<string, unknown>).sessionCapabilities, { list: {}, resume: {}, close: {}, delete: {} });
    assert.deepEqual(answer.authMethods, [{ type: 'agent', id: 'login', name: 'Log in' }]);
  });

  it('MCP servers go only over the transports the agent takes; config options get v1 names', () => {
    const dropped: string[] = [];
    const servers = mcpServersV2([{ name: 'a', command: '/bin/a', args: [], env: [] }, { type: 'http', name: 'b', url: 'http://x', headers: [] }, { type: 'sse', name: 'c', url: 'http://y', headers: [] }], { http: {} }, (name) => dropped.push(name));
    assert.deepEqual(servers.map((s) => s.name), ['b']);
    assert.deepEqual(dropped, ['a', 'c']);
    const options = configOptionsV1([{ type: 'select', configId: 'm', name: 'Model', currentValue: 'x', options: [{ groupId: 'g', name: 'G', options: [{ value: 'x', name: 'X' }] }] } as unknown as v2.SessionConfigOption]);
    assert.deepEqual(options, [{ type: 'select', id: 'm', name: 'Model', currentValue: 'x', options: [{ group: 'g', name: 'G', options: [{ value: 'x', name: 'X' }] }] }]);
  });
});
