import * as acp from '@agentclientprotocol/sdk/unstable';
import { z } from 'zod';
import type { StepOf } from './scenarioSteps';
import { elicit } from './elicitSteps';
import type { StepRunner } from './stepRunner';
import { sleep, type StepResult } from './turnControl';

/** The steps that send requests to the client (or manage them). */
export type ClientStep = StepOf<'permission' | 'readFile' | 'writeFile' | 'terminal' | 'request' | 'cancelRequest' | 'await' | 'elicit' | 'elicitComplete'>;

const defaultPermissionOptions: acp.PermissionOption[] = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

// The SDK does not validate the client's results: parse them leniently here.
const permissionResponse = z.object({
  outcome: z.union([
    z.object({ outcome: z.literal('selected'), optionId: z.string() }),
    z.object({ outcome: z.literal('cancelled') }),
  ]),
});
const readResponse = z.object({ content: z.string() });
const createResponse = z.object({ terminalId: z.string() });
const exitStatus = z.object({ exitCode: z.number().nullable().optional(), signal: z.string().nullable().optional() });
const outputResponse = z.object({ output: z.string(), truncated: z.boolean().optional(), exitStatus: exitStatus.nullable().optional() });

/** `code message` of a JSON-RPC error (or the message of any other error). */
function describeError(error: unknown): string {
  if (error instanceof acp.RequestError) {
    return `${error.code} ${error.message}${error.data === undefined ? '' : ` data=${JSON.stringify(error.data)}`}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function errorResult(error: unknown): StepResult {
  return { outcome: 'error', text: describeError(error) };
}

function fenced(text: string): string {
  const shown = text.length > 4000 ? `${text.slice(0, 4000)}\n… (${text.length - 4000} more characters)` : text;
  const fence = shown.includes('```') ? '````' : '```';
  return `${fence}\n${shown}${shown.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** Runs a step that talks to the client and records its outcome. */
export async function runClientStep(runner: StepRunner, step: ClientStep): Promise<void> {
  switch (step.step) {
    case 'permission':
      return start(runner, step.as ?? 'permission', step, (signal) => permission(runner, step, signal));
    case 'readFile':
      return start(runner, step.as ?? 'readFile', step, (signal) => readFile(runner, step, signal));
    case 'writeFile':
      return start(runner, step.as ?? 'writeFile', step, (signal) => writeFile(runner, step, signal));
    case 'terminal':
      return start(runner, step.as ?? 'terminal', { echo: step.echo }, (signal) => terminal(runner, step, signal));
    case 'request':
      return start(runner, step.as ?? 'request', step, (signal) => request(runner, step, signal));
    case 'elicit':
      return start(runner, step.as ?? 'elicit', step, (signal) => elicit(runner, step, signal));
    case 'elicitComplete':
      return runner.engine.client.notify<unknown>('elicitation/complete', { elicitationId: step.elicitationId });
    case 'cancelRequest': {
      if (step.target !== undefined) {
        const pending = runner.control.pending.get(step.target);
        if (pending) {
          pending.controller.abort();
        } else {
          runner.engine.log(`  cancelRequest: no pending request named ${step.target}`);
        }
      }
      if (step.requestId !== undefined) {
        await runner.engine.wire.writeMessage({ method: '$/cancel_request', params: { requestId: step.requestId } });
      }
      return;
    }
    case 'await': {
      const pending = runner.control.pending.get(step.target);
      if (!pending) {
        runner.engine.log(`  await: no pending request named ${step.target}`);
        return;
      }
      const result = await pending.promise;
      runner.control.pending.delete(step.target);
      return runner.record(step.target, result, pending.echo);
    }
  }
}

/** Runs `exec` now (waiting for it unless `wait` is false) and records its result under `name`. */
async function start(
  runner: StepRunner, name: string, options: { echo?: boolean; wait?: boolean },
  exec: (signal: AbortSignal) => Promise<StepResult>,
): Promise<void> {
  const { controller, done } = runner.control.track();
  const promise = exec(controller.signal).catch(errorResult).finally(done);
  if (options.wait === false) {
    runner.control.pending.set(name, { controller, promise, echo: options.echo ?? false });
    void promise.then((result) => runner.setResult(name, result));
    return;
  }
  await runner.record(name, await promise, options.echo ?? false);
}

async function permission(runner: StepRunner, step: StepOf<'permission'>, signal: AbortSignal): Promise<StepResult> {
  const response: unknown = await runner.engine.client.request(acp.methods.client.session.requestPermission, {
    sessionId: runner.sessionId, toolCall: step.toolCall, options: step.options ?? defaultPermissionOptions,
  }, { cancellationSignal: signal });
  const parsed = permissionResponse.safeParse(response);
  if (!parsed.success) {
    return { outcome: 'invalid', text: JSON.stringify(response) };
  }
  const { outcome } = parsed.data;
  return { outcome: outcome.outcome === 'selected' ? outcome.optionId : 'cancelled', text: JSON.stringify(response) };
}

/** `noLocations`: the file the call named does not exist, so the update empties its locations (nothing to open). */
async function completeToolCall(runner: StepRunner, toolCallId: string | undefined, result: StepResult, text?: string, noLocations = false): Promise<void> {
  if (toolCallId === undefined) {
    return;
  }
  const ok = result.outcome === 'ok';
  await runner.sendUpdate({
    sessionUpdate: 'tool_call_update', toolCallId, status: ok ? 'completed' : 'failed',
    content: [{ type: 'content', content: { type: 'text', text: ok ? (text ?? result.text) : `Failed: ${result.text}` } }],
    ...(noLocations ? { locations: [] } : {}),
  });
}

async function readFile(runner: StepRunner, step: StepOf<'readFile'>, signal: AbortSignal): Promise<StepResult> {
  let result: StepResult;
  try {
    const response: unknown = await runner.engine.client.request(acp.methods.client.fs.readTextFile, {
      sessionId: runner.sessionId, path: step.path, line: step.line, limit: step.limit,
    }, { cancellationSignal: signal });
    const parsed = readResponse.safeParse(response);
    result = parsed.success ? { outcome: 'ok', text: parsed.data.content } : { outcome: 'invalid', text: JSON.stringify(response) };
  } catch (error) {
    result = errorResult(error);
  }
  if (result.outcome !== 'ok' && step.failureNote !== undefined) {
    await completeToolCall(runner, step.toolCallId, { outcome: 'ok', text: step.failureNote }, undefined, true);
  } else {
    await completeToolCall(runner, step.toolCallId, result, fenced(result.text));
  }
  return result;
}

async function writeFile(runner: StepRunner, step: StepOf<'writeFile'>, signal: AbortSignal): Promise<StepResult> {
  let result: StepResult;
  try {
    await runner.engine.client.request(acp.methods.client.fs.writeTextFile, {
      sessionId: runner.sessionId, path: step.path, content: step.content,
    }, { cancellationSignal: signal });
    result = { outcome: 'ok', text: step.path };
  } catch (error) {
    result = errorResult(error);
  }
  await completeToolCall(runner, step.toolCallId, result, `Wrote ${step.path}`);
  return result;
}

async function request(runner: StepRunner, step: StepOf<'request'>, signal: AbortSignal): Promise<StepResult> {
  const { engine } = runner;
  if (step.notification) {
    await engine.client.notify<unknown>(step.method, step.params);
    return { outcome: 'ok', text: '' };
  }
  if (step.id !== undefined) {
    const response = await engine.wire.sendRawRequest(step.id, step.method, step.params, signal);
    return response.error
      ? { outcome: 'error', text: `${response.error.code} ${response.error.message}` }
      : { outcome: 'ok', text: JSON.stringify(response.result ?? null) };
  }
  const result = await engine.client.request<unknown, unknown>(step.method, step.params, { cancellationSignal: signal });
  return { outcome: 'ok', text: JSON.stringify(result ?? null) };
}

/** terminal/create, then the ops (see the `terminal` step); always tries to release at the end if cancelled. */
async function terminal(runner: StepRunner, step: StepOf<'terminal'>, signal: AbortSignal): Promise<StepResult> {
  const { client } = runner.engine;
  const sessionId = runner.sessionId;
  let terminalId: string;
  try {
    const created = createResponse.parse(await client.request(acp.methods.client.terminal.create, {
      sessionId, command: step.command, args: step.args, env: step.env, cwd: step.cwd, outputByteLimit: step.outputByteLimit,
    }, { cancellationSignal: signal }));
    terminalId = created.terminalId;
  } catch (error) {
    const result = errorResult(error);
    await completeToolCall(runner, step.toolCallId, result);
    return result;
  }
  if (step.toolCallId !== undefined) {
    await runner.sendUpdate({
      sessionUpdate: 'tool_call_update', toolCallId: step.toolCallId, status: 'in_progress',
      content: [{ type: 'terminal', terminalId }],
    });
  }
  const ref = { sessionId, terminalId };
  const errors: string[] = [];
  const call = async <T>(label: string, fn: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (error) {
      errors.push(`${label}: ${describeError(error)}`);
      return undefined;
    }
  };
  const waitForExit = (): Promise<unknown> =>
    client.request(acp.methods.client.terminal.waitForExit, ref, { cancellationSignal: signal });
  let exit: z.infer<typeof exitStatus> | undefined;
  let output: z.infer<typeof outputResponse> | undefined;
  let timedOut = false;
  let released = false;
  const timeoutMs = step.timeoutMs ?? 5000;
  const ops = step.ops ?? (step.timeoutMs ? ['waitOrKill', 'output', 'release'] : ['waitForExit', 'output', 'release']);
  for (const op of ops) {
    if (runner.isHalted) {
      break;
    }
    if (runner.isCancelled) {
      if (!released) {
        await call('kill', () => client.request(acp.methods.client.terminal.kill, ref));
        await call('release', () => client.request(acp.methods.client.terminal.release, ref));
        released = true;
      }
      break;
    }
    if (typeof op === 'number') {
      await sleep(op, signal);
      continue;
    }
    switch (op) {
      case 'output':
        output = (await call('output', async () => outputResponse.parse(await client.request(acp.methods.client.terminal.output, ref)))) ?? output;
        break;
      case 'waitForExit':
        exit = (await call('waitForExit', async () => exitStatus.parse(await waitForExit()))) ?? exit;
        break;
      case 'waitOrKill': {
        const waiting = call('waitForExit', async () => exitStatus.parse(await waitForExit()));
        const first = await Promise.race([waiting, sleep(timeoutMs, signal).then(() => 'timeout' as const)]);
        if (first === 'timeout') {
          timedOut = true;
          await call('kill', () => client.request(acp.methods.client.terminal.kill, ref));
          const after = await Promise.race([waiting, sleep(timeoutMs).then(() => undefined)]);
          exit = after;
        } else {
          exit = first;
        }
        break;
      }
      case 'kill':
        await call('kill', () => client.request(acp.methods.client.terminal.kill, ref));
        break;
      case 'release':
        await call('release', () => client.request(acp.methods.client.terminal.release, ref));
        released = true;
        break;
    }
  }
  const summary = {
    terminalId, exitStatus: exit ?? output?.exitStatus ?? null, output: output?.output ?? null,
    truncated: output?.truncated ?? null, timedOut, errors,
  };
  const result: StepResult = { outcome: timedOut ? 'timeout' : exit ? 'exited' : 'done', text: JSON.stringify(summary) };
  if (step.toolCallId !== undefined) {
    const success = !timedOut && (summary.exitStatus?.exitCode ?? 0) === 0 && errors.length === 0;
    await runner.sendUpdate({
      sessionUpdate: 'tool_call_update', toolCallId: step.toolCallId, status: success ? 'completed' : 'failed',
      rawOutput: { exitStatus: summary.exitStatus, timedOut },
    });
  }
  return result;
}
