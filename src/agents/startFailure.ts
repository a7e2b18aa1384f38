/**
 * What a notification says when an agent could not be started: one short, complete sentence with what to do.
 * The long details (every PATH directory searched, the OS error) go to the agent log, where the notification's
 * Show Agent Log button leads: a notification is cut at its length limit, and the advice came last.
 */
import { AgentSpawnError } from './agentErrors';
import { installHint } from './spawnPlan';

/** The text after "Could not start <agent>: " for `error`, without the spawn error's own "Cannot start agent …:" prefix. */
export function startFailure(agentName: string, error: unknown): string {
  if (AgentSpawnError.is(error, 'commandNotFound')) {
    const where = error.searchedPath.length ? ' on PATH' : '';
    return `'${error.command}' was not found${where}. ${installHint(error.command)}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const own = `Cannot start agent '${agentName}': `;
  return message.startsWith(own) ? message.slice(own.length) : message;
}
