/**
 * `npm run bench`: every benchmark prints its figures and a ratio against a baseline measured in the same
 * run, and the target it is held to. Benchmarks are not tests: nothing here is timed inside `npm test`.
 */
import { runCheckpointBenchmark } from './checkpointBench';
import {
  runDayBenchmark, runFirstCardBenchmark, runFirstPickerBenchmark, runHostBenchmarks, runLargeToolBenchmark, runSessionSwitchBenchmark, runStreamBenchmark,
  runWorktreeFanOutBenchmark,
} from './hostBench';
import { benchThroughput } from './ndjsonThroughput';
import { runRenderBenchmark } from './renderBench';
import { runRuleBenchmark } from './ruleBench';
import { runTransportBenchmark } from './transportBench';
import { reportTerminalOutput } from './terminalOutput';
import { runWorktreeBenchmark } from './worktreeBench';

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_MESSAGES ?? 100_000);
  console.log(`Benchmark 1: ${count.toLocaleString('en-US')} session/update notifications (Node ${process.version})`);
  const [raw, sdk, ours] = await benchThroughput(count, Number(process.env.BENCH_ROUNDS ?? 5));
  const fmt = (n: number) => `${Math.round(n).toLocaleString('en-US').padStart(9)} msg/s`;
  for (const r of [raw, sdk, ours]) console.log(`  ${r.name.padEnd(40)} ${fmt(r.messagesPerSecond)}`);
  const vsSdk = ours.messagesPerSecond / sdk.messagesPerSecond;
  const vsRaw = ours.messagesPerSecond / raw.messagesPerSecond;
  console.log(`  ours / SDK client  = ${vsSdk.toFixed(2)}x  (target >= 1.0x) ${vsSdk >= 1 ? 'met' : 'MISSED'}`);
  console.log(`  ours / raw parse   = ${vsRaw.toFixed(2)}x  (target >= 0.5x) ${vsRaw >= 0.5 ? 'met' : 'MISSED'}`);
  console.log(`  SDK  / raw parse   = ${(sdk.messagesPerSecond / raw.messagesPerSecond).toFixed(2)}x`);

  reportTerminalOutput();

  // agents served elsewhere: WebSocket and HTTP (the SDK's server on loopback) against stdio, one turn of 10k updates
  const transports = await runTransportBenchmark();
  for (const line of transports.lines) console.log(line);
  if (!transports.ok) process.exitCode = 1;

  // the user's figure: streaming end to end in the workbench (code-server + Chromium): test/bench/e2eStreamBench.mjs
  const stream = await runStreamBenchmark();
  for (const line of stream.lines) console.log(line);
  if (!stream.ok) process.exitCode = 1;

  // checkpoints: a shadow git repository of a generated 10,000-file / 200 MB workspace (plain node + git)
  const checkpoints = await runCheckpointBenchmark();
  for (const line of checkpoints.lines) console.log(line);
  if (!checkpoints.ok) process.exitCode = 1;

  // a session's worktree of a 10,000-file repository: add + changes vs plain `git worktree add` (plain node + git)
  const worktrees = await runWorktreeBenchmark();
  for (const line of worktrees.lines) console.log(line);
  if (!worktrees.ok) process.exitCode = 1;

  // Ask Several Agents in the workbench: long tasks during a fan-out of 3, extension-host MB per extra worktree
  // session, each against a plain session in the same run; test/bench/worktreeFanOutBench.mjs
  const fanOut = await runWorktreeFanOutBenchmark();
  for (const line of fanOut.lines) console.log(line);
  if (!fanOut.ok) process.exitCode = 1;

  // permission rules and the turn audit (plain node, the real bash grammar): docs/approvals.md
  const ruleBench = await runRuleBenchmark();
  for (const line of ruleBench.lines) console.log(line);
  if (!ruleBench.ok) process.exitCode = 1;

  // a unit-level guard, not the user's figure: the chat webview's Markdown rendering alone, in headless Chromium
  const render = await runRenderBenchmark();
  for (const line of render.lines) console.log(line);
  if (!render.ok) process.exitCode = 1;

  // benchmarks that need the real extension host (a dirty editor buffer): run through the test harness
  const host = await runHostBenchmarks();
  for (const line of host.lines) console.log(line);
  if (!host.ok) process.exitCode = 1;

  // switching sessions in the workbench (code-server + Chromium): test/bench/sessionSwitchBench.mjs
  const sw = await runSessionSwitchBenchmark();
  for (const line of sw.lines) console.log(line);
  if (!sw.ok) process.exitCode = 1;

  // 5 MB of text in one tool call, turn end → Ready, in fresh windows: test/bench/largeToolBench.mjs
  const large = await runLargeToolBenchmark();
  for (const line of large.lines) console.log(line);
  if (!large.ok) process.exitCode = 1;

  // first use in fresh windows (code-server + Chromium): the first New Session picker, activation; test/bench/firstPickerBench.mjs
  const first = await runFirstPickerBenchmark();
  for (const line of first.lines) console.log(line);
  if (!first.ok) process.exitCode = 1;

  // the first permission card of a fresh window (the shell parser) vs a later one; test/bench/firstCardBench.mjs
  const card = await runFirstCardBenchmark();
  for (const line of card.lines) console.log(line);
  if (!card.ok) process.exitCode = 1;

  // a day in one chat: 100 turns of 1,000 chunks + 3 tool calls in a fresh window; test/bench/dayBench.mjs
  const day = await runDayBenchmark();
  for (const line of day.lines) console.log(line);
  if (!day.ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
