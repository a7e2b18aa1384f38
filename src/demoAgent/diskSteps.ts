/**
 * The `disk` step: the scripted agent changes a file itself, from its own process, without asking the client
 * (as agents that write files themselves do). The client learns of it only through its checkpoints
 * (docs/checkpoints.md). The outcome is `ok` or `error` (with the message), recorded under `as`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StepOf } from './scenarioSteps';
import { sleep, type StepResult } from './turnControl';

/** The `waitForFile` step: resolves once `file` exists, after `timeoutMs`, or when `signal` aborts. */
export async function waitForFile(file: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(file) && Date.now() < deadline && !signal?.aborted) await sleep(100, signal);
}

/** Runs one `disk` step. */
export function runDiskStep(step: StepOf<'disk'>): StepResult {
  try {
    const file = step.path;
    switch (step.op) {
      case 'write':
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, step.base64 ? Buffer.from(step.content ?? '', 'base64') : step.content ?? '');
        break;
      case 'append':
        fs.appendFileSync(file, step.content ?? '');
        break;
      case 'delete':
        fs.rmSync(file, { recursive: true, force: true });
        break;
      case 'rename':
        if (!step.to) throw new Error('rename needs `to`');
        fs.mkdirSync(path.dirname(step.to), { recursive: true });
        fs.renameSync(file, step.to);
        break;
      case 'mkdir':
        fs.mkdirSync(file, { recursive: true });
        break;
    }
    return { outcome: 'ok', text: `${step.op} ${file}` };
  } catch (error) {
    return { outcome: 'error', text: error instanceof Error ? error.message : String(error) };
  }
}
