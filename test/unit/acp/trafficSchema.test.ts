/**
 * The traffic check the integration and UI suites rely on (test/fixtures/agents/trafficTap.ts): it must
 * pass what the schema allows and catch what it does not, for each kind of client message.
 */
import * as assert from 'node:assert/strict';
import { TrafficRecorder } from '../../fixtures/agents/trafficTap';
import { TrafficSchema } from '../../fixtures/agents/trafficSchema';

describe('client traffic validation against the SDK JSON Schema', () => {
  const schema = new TrafficSchema();

  it('passes a valid initialize and session/new, and names the schema that judged them', () => {
    assert.deepEqual(schema.check({ kind: 'request', method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } } }), { schema: 'stable', problems: [] });
    assert.deepEqual(schema.check({ kind: 'request', method: 'session/new', params: { cwd: '/w', mcpServers: [] } }), { schema: 'stable', problems: [] });
  });

  it('reports a missing required field and a wrong type', () => {
    const missing = schema.check({ kind: 'request', method: 'session/new', params: { cwd: '/w' } });
    assert.equal(missing.schema, 'stable');
    assert.match(missing.problems.join('\n'), /mcpServers/);
    const wrongType = schema.check({ kind: 'request', method: 'session/prompt', params: { sessionId: 's', prompt: 'hello' } });
    assert.ok(wrongType.problems.length > 0, 'a string prompt is not a list of content blocks');
  });

  it('checks notifications and the answers to the agent requests by their method', () => {
    assert.deepEqual(schema.check({ kind: 'notification', method: 'session/cancel', params: { sessionId: 's' } }).problems, []);
    assert.ok(schema.check({ kind: 'notification', method: 'session/cancel', params: {} }).problems.length > 0);
    assert.deepEqual(schema.check({ kind: 'result', method: 'fs/read_text_file', result: { content: 'x' } }).problems, []);
    assert.ok(schema.check({ kind: 'result', method: 'fs/read_text_file', result: { text: 'x' } }).problems.length > 0);
    const outcome = { outcome: { outcome: 'selected', optionId: 'allow' } };
    assert.deepEqual(schema.check({ kind: 'result', method: 'session/request_permission', result: outcome }).problems, []);
    assert.ok(schema.check({ kind: 'result', method: 'session/request_permission', result: { outcome: 'allow' } }).problems.length > 0);
  });

  it('judges unstable methods by the unstable schema, and flags methods no schema has', () => {
    assert.equal(schema.check({ kind: 'request', method: 'session/fork', params: { sessionId: 's', cwd: '/w' } }).schema, 'unstable');
    const unknown = schema.check({ kind: 'request', method: 'session/frobnicate', params: {} });
    assert.equal(unknown.schema, 'none');
    assert.match(unknown.problems[0] ?? '', /not a request of the ACP schema/);
    assert.deepEqual(schema.check({ kind: 'request', method: '_switchboard/anything', params: 1 }).problems, [], 'extension methods are free');
  });

  it('pairs the client answers with the agent requests by id, and flags lines that are not JSON-RPC', () => {
    const records: Record<string, unknown>[] = [];
    const recorder = new TrafficRecorder(schema, (r) => records.push(r));
    recorder.agentLine(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'fs/read_text_file', params: { sessionId: 's', path: '/w/a' } }));
    recorder.clientLine(JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: 'a' } }));
    recorder.clientLine(JSON.stringify({ jsonrpc: '2.0', id: 8, error: { code: -32002, message: 'Resource not found' } }));
    recorder.clientLine('not json');
    assert.deepEqual(records[0], { method: 'fs/read_text_file', kind: 'result', schema: 'stable' });
    assert.deepEqual(records[1], { method: '(unknown request id)', kind: 'error', schema: 'stable' });
    assert.equal(records[2]?.kind, 'unparsed');
  });
});
