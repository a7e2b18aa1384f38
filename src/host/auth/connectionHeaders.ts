/**
 * The headers of an agent served over WebSocket or HTTP (`transport.headers`: docs/remote-agents.md): their values
 * live in SecretStorage only (src/host/auth/secrets.ts), asked for once in a password box the first time the agent
 * connects without them, and masked in every log. A refused question fails the connection with a sentence that
 * says which header is missing; nothing is sent without it.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { inert } from '../../shared/inertText';
import type { AgentSecrets } from './secrets';

/** Asks for one header's value (undefined: cancelled). */
export type AskHeader = (agentName: string, header: string) => Promise<string | undefined>;

/** The password box of a header value. */
export const askHeaderInBox: AskHeader = (agentName, header) => Promise.resolve(vscode.window.showInputBox({
  title: inert.label`${agentName}: connection header`,
  prompt: inert.label`The value of the ${header} header sent to ${agentName} at every connection (e.g. "Bearer …"). Kept in VS Code's secret storage.`,
  placeHolder: header, password: true, ignoreFocusOut: true,
  validateInput: (v) => (v.trim() ? undefined : `${header} is required.`),
}));

/** The header values of `def` for its next connection; missing ones are asked for and stored. */
export async function connectionHeaders(def: AgentDefinition, secrets: Pick<AgentSecrets, 'headersFor' | 'storeHeaders'> | undefined, ask: AskHeader, mask: (value: string) => void): Promise<Record<string, string>> {
  const names = def.transport && def.transport.type !== 'ssh' ? def.transport.headers : [];
  if (!names.length) return {};
  if (!secrets) throw new Error('VS Code\'s secret storage is not available, so the connection headers cannot be read.');
  const stored = await secrets.headersFor(def.id);
  const asked: Record<string, string> = {};
  for (const name of names) {
    if (stored[name]) continue;
    const value = (await ask(def.name, name))?.trim();
    if (!value) throw new Error(`the ${name} header has no value (set it when asked; it is kept in VS Code's secret storage)`);
    asked[name] = value;
  }
  if (Object.keys(asked).length) await secrets.storeHeaders(def.id, asked);
  const all = { ...stored, ...asked };
  // "Bearer <token>": the token alone is a secret too
  for (const value of Object.values(all)) for (const part of value.split(/\s+/)) if (part.length >= 8) mask(part);
  return Object.fromEntries(names.map((n) => [n, all[n]]));
}
