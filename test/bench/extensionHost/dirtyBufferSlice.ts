/**
 * Benchmark: `fs/read_text_file` of a 50-line slice from a 200,000-line dirty
 * buffer vs reading the whole text, in the real extension host. Both go through the session's
 * FsHandler (path checks included); the JSON-RPC transport is not part of the figures. Every timed read
 * follows a one-character edit, as while the user types.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, useScriptedAgent, workspaceRoot } from '../../integration/helpers';

const lineCount = Number(process.env.BENCH_BUFFER_LINES ?? 200_000);
const sliceLine = Math.floor(lineCount / 2);
const sliceLimit = 50;
const targetMs = 2;

const lineText = (i: number) => `line ${String(i).padStart(6, '0')}: const value${i} = compute(${i}, "some text to make it longer");\n`;

/** The median of some numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Runs `fn` `rounds` times after `warmup` untimed runs, each after an untimed `before`; returns the times in ms. */
async function time(rounds: number, warmup: number, before: () => Promise<unknown>, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await before();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

/** Runs the benchmark; returns the lines to print. */
export async function benchDirtyBufferSlice(): Promise<string[]> {
  const sb = await api();
  const sessionId = await sb.newSession(await useScriptedAgent('fs'));
  const handler = sb.session(sessionId)?.fs;
  assert.ok(handler, 'the session has a file handler');
  const file = path.join(workspaceRoot(), 'bench-dirty-buffer.txt');
  fs.writeFileSync(file, '// saved content\n');
  const doc = await vscode.workspace.openTextDocument(file);
  await vscode.window.showTextDocument(doc);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), Array.from({ length: lineCount }, (_, i) => lineText(i + 1)).join(''));
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(doc.isDirty && doc.lineCount === lineCount + 1, 'a dirty buffer of the expected size');

  const token = new vscode.CancellationTokenSource().token;
  const slice = () => handler.readTextFile({ sessionId, path: file, line: sliceLine, limit: sliceLimit }, token);
  const whole = () => handler.readTextFile({ sessionId, path: file }, token);
  const expected = Array.from({ length: sliceLimit }, (_, i) => lineText(sliceLine + i)).join('');
  assert.equal((await slice()).content, expected, 'the slice is exact');
  assert.equal((await whole()).content.length, doc.getText().length, 'the whole read is the whole buffer');

  // the user keeps typing: each read follows an edit (VS Code caches a document's whole text until the
  // next change, so reading it twice in a row would measure the cache)
  let typed = false;
  const type = async () => {
    const e = new vscode.WorkspaceEdit();
    if (typed) e.delete(doc.uri, new vscode.Range(0, 0, 0, 1));
    else e.insert(doc.uri, new vscode.Position(0, 0), 'x');
    typed = !typed;
    assert.ok(await vscode.workspace.applyEdit(e));
  };
  const rounds = Number(process.env.BENCH_ROUNDS_SLICE ?? 200);
  const sliceTimes = await time(rounds, 20, type, slice);
  const wholeTimes = await time(Math.max(10, Math.floor(rounds / 4)), 3, type, whole);
  const [s, w] = [median(sliceTimes), median(wholeTimes)];

  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  fs.rmSync(file, { force: true });
  await sb.stopAll();

  const mb = (Buffer.byteLength(expected) / sliceLimit * lineCount / 1e6).toFixed(1);
  return [
    `Benchmark: fs/read_text_file from a ${lineCount.toLocaleString('en-US')}-line dirty buffer (${mb} MB, VS Code ${vscode.version}, Node ${process.version})`,
    `  ${`${sliceLimit}-line slice at line ${sliceLine.toLocaleString('en-US')}`.padEnd(36)} ${s.toFixed(3).padStart(9)} ms median (${sliceTimes.length} runs)`,
    `  ${'whole text'.padEnd(36)} ${w.toFixed(3).padStart(9)} ms median (${wholeTimes.length} runs)`,
    `  whole / slice = ${(w / s).toFixed(0)}x`,
    `  target slice ≤ ${targetMs} ms: ${s <= targetMs ? 'met' : 'MISSED'}`,
  ];
}
