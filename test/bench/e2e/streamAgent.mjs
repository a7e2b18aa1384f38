#!/usr/bin/env node
// @ts-check
// The end-to-end bench's agent: a minimal ACP agent over stdio that writes NDJSON by hand, so that the agent
// itself costs next to nothing and the benchmark measures the client. It answers `initialize` and
// `session/new`, and answers each `session/prompt` with one streamed answer (`agent_message_chunk`s of about
// 200 bytes of Markdown from ../render/chunks.mjs), then `end_turn`. What a prompt streams is read from the
// JSON file in env STREAM_CONTROL at that moment (the bench changes it between runs):
//   { "chunks": 20000, "rate": 0 }      as fast as the pipe takes them (waits for 'drain'); "shape" picks the
//                                       answer's Markdown (../render/chunks.mjs SHAPES, default "bench")
//   { "chunks": 1000, "tools": 3 }      3 tool calls (started, then completed with 12 lines of output) first
//   { "chunks": 3000, "rate": 100 }     paced, chunks per second; each chunk ends with « k@t » (t = Date.now()
//                                       when it was written), so the page can measure write → painted
// After each turn it writes a line to env STREAM_LOG (if set): {"chunks", "bytes", "writeMs"}.
import fs from 'node:fs';
import readline from 'node:readline';
import { makeChunks } from '../render/chunks.mjs';

const sessionId = 'bench-session';
/** Prompts answered so far (tool call ids are unique per turn). */
let turn = 0;

/** @param {unknown} msg */
function send(msg) {
  return process.stdout.write(`${JSON.stringify(msg)}\n`);
}

/** @param {string} text */
function chunkLine(text) {
  return `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } })}\n`;
}

const drain = () => new Promise((resolve) => process.stdout.once('drain', resolve));
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams one answer as `control` says; resolves when every chunk was handed to the pipe. */
async function stream() {
  /** @type {{ chunks: number, rate?: number, shape?: import('../render/chunks.mjs').Shape, tools?: number }} */
  const control = JSON.parse(fs.readFileSync(String(process.env.STREAM_CONTROL), 'utf8'));
  // tool calls first (as coding agents do: read, then answer), each one started and completed with some output
  turn++;
  for (let k = 0; k < (control.tools ?? 0); k++) {
    const toolCallId = `t${turn}-${k}`;
    send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call', toolCallId, title: `Read src/file${k}.ts`, kind: 'read', status: 'in_progress', locations: [{ path: `/tmp/file${k}.ts` }] } } });
    const output = Array.from({ length: 12 }, (_, i) => `${i + 1}\texport const value${i} = ${turn * 100 + i}; // line of file ${k}`).join('\n');
    send({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: output } }] } } });
  }
  const { chunks } = makeChunks(control.chunks, control.shape);
  const rate = control.rate ?? 0;
  const t0 = Date.now();
  let bytes = 0;
  for (let i = 0; i < chunks.length; i++) {
    let text = chunks[i];
    if (rate > 0) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      // the stamp goes before the last chunk's end marker, so that the marker stays the answer's last text
      const stamp = ` «${i}@${Date.now()}» `;
      text = i === chunks.length - 1 ? text.replace(/(\n*END-OF-BENCH\n?)$/, `${stamp}$1`) : text + stamp;
    }
    bytes += text.length;
    if (!process.stdout.write(chunkLine(text))) await drain();
  }
  if (process.env.STREAM_LOG) fs.appendFileSync(process.env.STREAM_LOG, `${JSON.stringify({ chunks: chunks.length, bytes, writeMs: Date.now() - t0 })}\n`);
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  /** @type {{ id?: number | string, method?: string }} */
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined || !msg.method) return; // notifications and answers to us: nothing to do
  const id = msg.id;
  switch (msg.method) {
    case 'initialize':
      send({ jsonrpc: '2.0', id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: 'stream-bench', version: '1.0.0' } } });
      return;
    case 'session/new':
      send({ jsonrpc: '2.0', id, result: { sessionId } });
      return;
    case 'session/prompt':
      void stream().then(() => send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } }));
      return;
    default:
      send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
  }
});
