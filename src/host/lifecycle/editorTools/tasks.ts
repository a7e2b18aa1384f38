/**
 * The editor's tasks for agents (docs/editor-tools.md): `list_tasks` lists the workspace's VS Code tasks (tasks.json
 * and the task providers': npm scripts, …) with their command lines; `run_task` runs one and answers with its exit
 * code, its time, and the problems in the session's folders afterwards (a task's problem matchers report there). A
 * task runs a command, so it is asked about exactly as the agent's `terminal/create` is: the user's rules and answers
 * decide (a deny rule refuses, an allow rule runs it), and otherwise a card in the chat asks (src/host/terminals/commandGrant.ts).
 */
import * as vscode from 'vscode';
import { AcpError } from '../../../acp/errors';
import { inert } from '../../../shared/inertText';
import { checkCommand } from '../../terminals/commandGrant';
import { realRoots, isInside } from '../../files/pathPolicy';
import { toProblem } from './editorToolsApi';
import type { ToolCall } from './grant';
import { EditorToolError, capText, problemsText, type ProblemLine } from './toolText';

/** The command line a task runs, as words; undefined for a task that runs no command of its own (a custom execution). */
function taskCommand(task: vscode.Task): string[] | undefined {
  const ex = task.execution;
  const text = (v: string | vscode.ShellQuotedString) => (typeof v === 'string' ? v : v.value);
  if (ex instanceof vscode.ProcessExecution) return [ex.process, ...ex.args];
  if (ex instanceof vscode.ShellExecution) {
    if (ex.commandLine !== undefined) return ['sh', '-c', ex.commandLine];
    if (ex.command !== undefined) return [text(ex.command), ...(ex.args ?? []).map(text)];
  }
  return undefined;
}

const shownCommand = (words: readonly string[]) => (words[0] === 'sh' && words[1] === '-c' ? words[2] ?? '' : words.join(' '));
const groupOf = (task: vscode.Task) => (task.group ? ` [${task.group.id}]` : '');

/** The workspace's tasks. */
async function fetchTasks(call: ToolCall): Promise<vscode.Task[]> {
  const tasks = await vscode.tasks.fetchTasks();
  if (call.signal.aborted) throw new EditorToolError('The call was cancelled.');
  return tasks;
}

/** `list_tasks`: each task's name (as run_task takes it), group, and command line. */
export async function listTasks(call: ToolCall): Promise<string> {
  const tasks = await fetchTasks(call);
  if (!tasks.length) return 'No tasks (no tasks.json, and no task provider found any).';
  return capText(tasks.map((t) => {
    const words = taskCommand(t);
    return `${t.source === 'Workspace' ? t.name : `${t.source}: ${t.name}`}${groupOf(t)}${t.isBackground ? ' (background)' : ''}: ${words ? shownCommand(words) : '(runs no command line of its own)'}`;
  }).join('\n'));
}

/** The problems of the session's folders now. */
async function problemsNow(call: ToolCall): Promise<ProblemLine[]> {
  const roots = await realRoots(call.grant.roots);
  return vscode.languages.getDiagnostics().filter(([uri]) => uri.scheme === 'file' && isInside(uri.fsPath, roots))
    .flatMap(([uri, list]) => list.filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning).map((d) => toProblem(uri.fsPath, d)));
}

/** `run_task`: asks as a command is asked about, runs the task, and waits for its end (a background task: its start). */
export async function runTask(call: ToolCall, args: { name: string }): Promise<string> {
  const session = call.grant.session;
  if (!session) throw new EditorToolError('This session cannot run tasks yet (it is still starting).');
  const tasks = await fetchTasks(call);
  const task = tasks.find((t) => t.name === args.name || `${t.source}: ${t.name}` === args.name);
  if (!task) throw new EditorToolError(`There is no task "${args.name}". list_tasks lists them.`);
  const words = taskCommand(task);
  const label = `${task.source === 'Workspace' ? '' : `${task.source}: `}${task.name}`;
  const cts = new vscode.CancellationTokenSource();
  call.signal.addEventListener('abort', () => cts.cancel());
  try {
    await checkCommand(session, { sessionId: session.ctx.sessionId, command: words?.[0] ?? `task:${label}`, args: words?.slice(1) ?? [], cwd: call.grant.cwd }, async () => ({ ...process.env }), cts.token, {
      title: inert.plain`Run the task "${label}"`, // a workspace's task name: shown as text wherever the card goes
      intro: `${session.ctx.agentName} asks, through the editor's tools, to run the VS Code task "${label}", which runs:`,
    });
  } catch (error) {
    if (AcpError.is(error)) throw new EditorToolError(`Not run: ${error.message}`);
    throw error;
  }
  call.grant.log(`run_task: "${label}" allowed`);
  const started = performance.now();
  const ended = new Promise<number | undefined>((resolve) => {
    const subs = [
      vscode.tasks.onDidEndTaskProcess((e) => { if (e.execution.task.name === task.name && e.execution.task.source === task.source) { subs.forEach((d) => d.dispose()); resolve(e.exitCode); } }),
      vscode.tasks.onDidEndTask((e) => { if (e.execution.task.name === task.name && e.execution.task.source === task.source) { subs.forEach((d) => d.dispose()); resolve(undefined); } }),
    ];
  });
  const execution = await vscode.tasks.executeTask(task);
  if (task.isBackground) return `Started the background task "${label}"; it keeps running in its terminal (its problems appear in get_diagnostics).`;
  const aborted = new Promise<'aborted'>((resolve) => call.signal.addEventListener('abort', () => { execution.terminate(); resolve('aborted'); }));
  const code = await Promise.race([ended, aborted]);
  if (code === 'aborted') throw new EditorToolError(`The call was cancelled; the task "${label}" was stopped.`);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the problem matchers' last reports
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const head = `The task "${label}" ${code === undefined ? 'ended' : `exited with code ${code}`} after ${seconds} s. (Its output is in its terminal in the editor; the problems in the session's folders now:)`;
  return capText(`${head}\n${problemsText(call.grant.cwd, await problemsNow(call), new Set())}`);
}
