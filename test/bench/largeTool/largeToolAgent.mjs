#!/usr/bin/env node
// @ts-check
// The large tool content bench's agent (../largeToolBench.mjs): a minimal ACP agent over stdio that writes NDJSON
// by hand (it costs next to nothing). Each `session/prompt` gets one tool call whose output is a big text, then
// `end_turn`. What a prompt sends is read from the JSON file in env TOOL_CONTROL at that moment:
//   { "bytes": 5242880, "as": "content" }    the text as the call's content (`{type: 'content', content: {type: 'text', text}}`)
//   { "bytes": 5242880, "as": "rawOutput" }  the text only in `rawOutput` (`{stdout, exit_code}`, as some agents send it)
// The call is announced (`tool_call`, in progress, no output), then completed with its output in one
// `tool_call_update`; once those bytes were taken by the pipe, the answer `end_turn` is written, and a line
// goes to env TOOL_LOG: {"bytes", "as", "toolAt", "endTurnAt"} (wall-clock ms: the big update started to be
// written, the end_turn line was written).
import fs from 'node:fs';
import readline from 'node:readline';

let sessions = 0;
let calls = 0;

/** @param {unknown} msg */
function send(msg) {
  return process.stdout.write(`${JSON.stringify(msg)}\n`);
}

const drain = () => new Promise((resolve) => process.stdout.once('drain', resolve));

/** About `bytes` of printed output: numbered log lines of ~80 ASCII characters. @param {number} bytes */
export function outputText(bytes) {
  const lines = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const line = `${String(i).padStart(6, '0')} INFO  worker-${i % 8} processed item ${i * 7919 % 100000} in ${(i % 97) + 3} ms: ok\n`;
    lines.push(line);
    n += line.length;
  }
  lines.push('END-OF-TOOL-OUTPUT\n');
  return lines.join('');
}

/** @param {string | number} id the prompt's request id @param {string} sessionId */
async function turn(id, sessionId) {
  /** @type {{ bytes: number, as: 'content' | 'rawOutput', toolCallId?: string }} */
  const control = JSON.parse(fs.readFileSync(String(process.env.TOOL_CONTROL), 'utf8'));
  const toolCallId = control.toolCallId ?? `call-${++calls}`;
  const text = outputText(control.bytes);
  const update = (/** @type {Record<string, unknown>} */ u) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: u } });
  send(update({ sessionUpdate: 'tool_call', toolCallId, title: 'Run the build', kind: 'execute', status: 'in_progress', rawInput: { command: ['npm', 'run', 'build'] } }));
  const output = control.as === 'content'
    ? { content: [{ type: 'content', content: { type: 'text', text } }] }
    : { rawOutput: { stdout: text, exit_code: 0 } };
  const toolAt = Date.now();
  if (!send(update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', ...output }))) await drain();
  const endTurnAt = Date.now();
  send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
  if (process.env.TOOL_LOG) fs.appendFileSync(process.env.TOOL_LOG, `${JSON.stringify({ bytes: text.length, as: control.as, toolAt, endTurnAt })}\n`);
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  /** @type {{ id?: number | string, method?: string, params?: { sessionId?: string } }} */
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined || !msg.method) return;
  const id = msg.id;
  switch (msg.method) {
    case 'initialize':
      send({ jsonrpc: '2.0', id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: 'large-tool-bench', version: '1.0.0' } } });
      return;
    case 'session/new':
      send({ jsonrpc: '2.0', id, result: { sessionId: `large-tool-${++sessions}` } });
      return;
    case 'session/prompt':
      void turn(id, String(msg.params?.sessionId));
      return;
    default:
      send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
  }
});
