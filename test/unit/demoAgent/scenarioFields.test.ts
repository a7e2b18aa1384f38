import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { useTestClient } from './acpTestClient';

// toolFields.json: a tool call whose output is only in rawOutput, agentInfo with a title and version, a prompt
// response with usage (the `stop` step's `usage`), and the `{{traceparents}}` template.

describe('demoAgent / tool fields, usage and traceparents', () => {
  const open = useTestClient();

  it("sends agentInfo, a named tool call with only rawOutput, and the prompt response's usage", async () => {
    const c = open('toolFields');
    const init = await c.initialize();
    assert.deepEqual(init.agentInfo, { name: 'tool-fields-agent', title: 'Fields Agent', version: '2.5.1' });
    const { sessionId } = await c.agent.request(acp.methods.agent.session.new, { cwd: '/work/project', mcpServers: [] });
    assert.equal(await c.prompt(sessionId, 'fields'), 'end_turn');
    const call = c.updatesOf('tool_call', sessionId).find((u) => u.toolCallId === 'tc-raw');
    assert.equal(call?.name, 'exec_command');
    const done = c.updatesOf('tool_call_update', sessionId).find((u) => u.toolCallId === 'tc-raw');
    assert.equal(done?.content, undefined, 'no content: the output is only in rawOutput');
    assert.equal((done?.rawOutput as { exit_code?: number }).exit_code, 2);
    const response = c.wire.find((l) => 'json' in l && (l.json.result as { stopReason?: string } | undefined)?.stopReason === 'end_turn');
    assert.ok(response && 'json' in response);
    assert.deepEqual((response.json.result as { usage?: unknown }).usage, {
      totalTokens: 12345, inputTokens: 10000, outputTokens: 2345, thoughtTokens: 500, cachedReadTokens: 8000, cachedWriteTokens: 120,
    }, 'the usage goes on the wire as written');
    await c.prompt(sessionId, 'plain');
    const plain = c.wire.filter((l) => 'json' in l && (l.json.result as { stopReason?: string } | undefined)?.stopReason).pop();
    assert.ok(plain && 'json' in plain && !('usage' in (plain.json.result as object)), 'a turn without a stop usage sends none');
  });

  it('echoes the traceparent of every request it received (none when the client sent none)', async () => {
    const c = open('toolFields');
    const { sessionId } = await c.start();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await c.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'trace' }], _meta: { traceparent } });
    assert.equal(c.text(), `traceparents: initialize none; session/new none; session/prompt ${traceparent}`);
    assert.ok(c.stderr.join('').includes(`traceparent=${traceparent}`), 'and logs it with the request');
  });
});
