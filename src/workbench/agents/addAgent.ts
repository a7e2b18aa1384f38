/**
 * `ACP: Add Agent…`: a short guided flow (name, where it runs, then what that needs, where to save) that appends
 * an entry to `switchboard.agents`, validated by the same schema that reads the setting. The steps after the
 * second depend on the transport (src/agents/agentDraft.ts draftSteps): on this machine the command, arguments
 * and environment; over SSH the host and remote folder, then the command; served over WebSocket or HTTP the URL
 * (or a local command that prints it), header names and the folder. Each step has Back; Esc ends the flow. Variables that look like secrets go to SecretStorage (the store `env_var` logins use,
 * docs/security.md#secrets), never to settings. At the end it offers Start Session.
 */
import * as vscode from 'vscode';
import { type AgentDefinition, parseAgentDefinition } from '../../agents/agentDefinition';
import {
  agentIdFor, type AgentDraft, commandProblem, draftEntry, draftProblem, type DraftPlace, type DraftStep, draftSteps, DraftLineError, emptyDraft,
  parseEnvPairs, splitWords,
} from '../../agents/agentDraft';
import { endpointProblem, transportLabel } from '../../agents/agentTransport';
import type { AgentSecrets } from '../../host/auth/secrets';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import { inert } from '../../shared/inertText';
import { commandIds } from '../../constants';
import { pickStep, textStep, type StepResult } from './quickSteps';

/** What the command needs. */
export interface AddAgentDeps {
  readonly registry: AgentRegistry;
  readonly secrets: () => AgentSecrets | undefined;
}

/** How the command was started. */
export interface AddAgentOptions {
  /** Offer Start Session at the end (false when New Session started it and starts the session itself). */
  readonly offerStart?: boolean;
}

const title = 'ACP: Add Agent';

const placeItems: { label: string; description: string; value: DraftPlace }[] = [
  { label: '$(device-desktop) On this machine', description: 'a command started here', value: 'stdio' },
  { label: '$(remote) On another machine over SSH', description: 'started there with your ssh', value: 'ssh' },
  { label: '$(plug) Served over WebSocket', description: 'connect to an agent at a wss:// URL', value: 'websocket' },
  { label: '$(globe) Served over HTTP', description: 'connect to an agent at an https:// URL', value: 'http' },
];

/** The command step's prompt, by where the command runs. */
const commandPrompts: Record<DraftPlace, string> = {
  stdio: 'The command that starts it: a name on your PATH (e.g. npx) or a path. The button browses for a file.',
  ssh: 'The command that starts it on that machine: a name on the PATH of your login shell there (e.g. npx) or a path there.',
  websocket: 'The local command that prints the endpoint to connect to (its last line is the URL), e.g. an engine that places the agent. The button browses for a file.',
  http: 'The local command that prints the endpoint to connect to (its last line is the URL), e.g. an engine that places the agent. The button browses for a file.',
};

/** The raw `switchboard.agents` arrays of user and workspace settings (to append to, and their ids). */
function settingLists(): { user: unknown[]; workspace: unknown[] } {
  const inspected = vscode.workspace.getConfiguration('switchboard').inspect<unknown>('agents');
  const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
  return { user: list(inspected?.globalValue), workspace: list(inspected?.workspaceValue) };
}

function lineProblem(parse: () => unknown): string | undefined {
  try {
    parse();
    return undefined;
  } catch (ex) {
    if (ex instanceof DraftLineError) return ex.message;
    throw ex;
  }
}

function cwdForLookup(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function browseForCommand(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({ title: 'Choose the agent\'s executable', canSelectFiles: true, canSelectFolders: false, canSelectMany: false, openLabel: 'Use as Command' });
  return picked?.[0]?.fsPath;
}

/** One step of the flow: `index` in `steps`. */
async function runStep(steps: readonly DraftStep[], index: number, draft: AgentDraft, known: readonly AgentDefinition[]): Promise<StepResult<string>> {
  const common = { title, step: index + 1, totalSteps: steps.length, back: index > 0 };
  const local = draft.place !== 'ssh'; // a served agent's command runs here too (it prints the endpoint)
  switch (steps[index]) {
    case 'name': {
      const names = new Set(known.map((a) => a.name.trim().toLowerCase()));
      return textStep({
        ...common, value: draft.name, prompt: 'The agent\'s name, as New Session shows it', placeholder: 'e.g. My Agent',
        validate: (v) => (!v.trim() ? 'Enter a name.' : names.has(v.trim().toLowerCase()) ? `An agent named "${v.trim()}" already exists: choose another name.` : undefined),
      });
    }
    case 'place':
      return pickStep({ ...common, placeholder: 'Where does the agent run?', items: placeItems });
    case 'host':
      return textStep({
        ...common, value: draft.host, placeholder: 'e.g. build-1 or me@build-1:2222',
        prompt: 'The machine to start it on: a host name, an address or a Host alias of your ~/.ssh/config, as host, user@host or user@host:port. ssh needs a key or an ssh agent there (it asks no password).',
        validate: (v) => draftProblem(draft, 'host', v),
      });
    case 'url':
      return textStep({
        ...common, value: draft.url, placeholder: draft.place === 'websocket' ? 'e.g. wss://acp.example.com/agent' : 'e.g. https://acp.example.com/agent',
        prompt: draft.place === 'websocket'
          ? 'The agent\'s endpoint: wss://…, or ws://… on this machine. Leave it empty when a local command prints the endpoint (placement by an engine).'
          : 'The agent\'s endpoint: https://…, or http://… on this machine. Leave it empty when a local command prints the endpoint (placement by an engine).',
        validate: (v) => (v.trim() ? endpointProblem(draft.place === 'websocket' ? 'websocket' : 'http', v.trim()) : undefined),
      });
    case 'command':
      return textStep({
        ...common, value: draft.command, prompt: commandPrompts[draft.place],
        placeholder: 'e.g. npx', validate: (v) => (v.trim() ? undefined : 'Enter a command.'),
        // a command not found here warns once; Enter again keeps it (it may be installed later). Over SSH it runs there.
        ...(local ? {
          warn: async (v: string) => {
            const problem = await commandProblem(v.trim(), cwdForLookup());
            return problem && `${problem} Press Enter to keep it anyway, or browse for the file.`;
          },
          browse: { tooltip: 'Browse for the executable…', run: browseForCommand },
        } : {}),
      });
    case 'args':
      return textStep({
        ...common, value: draft.args, prompt: 'Arguments, separated by spaces; quote a value that has spaces ("like this"). Empty for none.',
        placeholder: 'e.g. --experimental-acp --model "my model"', validate: (v) => lineProblem(() => splitWords(v)),
      });
    case 'env':
      return textStep({
        ...common, value: draft.env, prompt: 'Environment variables, KEY=VALUE separated by spaces (optional). Keys, tokens and passwords are kept in secret storage, not in settings.',
        placeholder: 'e.g. DEBUG=1 MY_API_KEY=…', validate: (v) => lineProblem(() => parseEnvPairs(v)),
      });
    case 'headers':
      return textStep({
        ...common, value: draft.headers, placeholder: 'e.g. Authorization',
        prompt: 'Names of headers sent at every connection, separated by commas or spaces (optional). Their values are asked for at the first connection and kept in secret storage.',
        validate: (v) => draftProblem(draft, 'headers', v),
      });
    case 'cwd':
      return textStep({
        ...common, value: draft.cwd, placeholder: 'e.g. /home/me/src/app',
        prompt: 'The folder the agent works in on its machine, as an absolute path there (the session\'s folder).',
        validate: (v) => draftProblem(draft, 'cwd', v),
      });
    default: {
      const trusted = vscode.workspace.isTrusted && Boolean(vscode.workspace.workspaceFolders?.length);
      const items = [{ label: '$(account) User Settings', description: 'every window', value: 'user' }];
      if (trusted) items.push({ label: '$(root-folder) Workspace Settings', description: 'this workspace only', value: 'workspace' });
      return pickStep({ ...common, placeholder: trusted ? 'Where to save the agent' : 'Where to save the agent (workspace settings need a trusted workspace)', items });
    }
  }
}

/** Runs the flow; resolves with the new agent, or undefined when the user left it. */
export async function addAgent(deps: AddAgentDeps, options: AddAgentOptions = {}): Promise<AgentDefinition | undefined> {
  const known = deps.registry.all();
  const draft = emptyDraft();
  let target = '';
  // the steps follow from what is chosen: recomputed at each step, those before it never change with it
  for (let index = 0; index < draftSteps(draft).length;) {
    const steps = draftSteps(draft);
    const result = await runStep(steps, index, draft, known);
    if (result.kind === 'cancel') return undefined;
    if (result.kind === 'back') {
      index--;
      continue;
    }
    const step = steps[index];
    if (step === 'target') target = result.value;
    else if (step === 'place') draft.place = result.value as DraftPlace;
    else draft[step] = result.value;
    index++;
  }
  const lists = settingLists();
  const taken = new Set([...known.map((a) => a.id), ...[...lists.user, ...lists.workspace].map((e) => (e as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string')]);
  const id = agentIdFor(draft.name, taken);
  const { entry, secret } = draftEntry(draft, id);
  // the same schema that reads the setting: what is written here is what New Session will start
  const definition = parseAgentDefinition(entry);
  const secretNames = Object.keys(secret);
  if (secretNames.length) {
    const store = deps.secrets();
    if (!store) throw new Error('No secret storage: the secret variables were not saved.');
    await store.store(id, secret);
  }
  const workspace = target === 'workspace';
  await vscode.workspace.getConfiguration('switchboard').update('agents', [...(workspace ? lists.workspace : lists.user), entry],
    workspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  const where = workspace ? 'workspace settings' : 'user settings';
  const secrets = secretNames.length ? ` ${secretNames.join(', ')} ${secretNames.length === 1 ? 'is' : 'are'} kept in secret storage.` : '';
  const runs = definition.transport ? ` (${transportLabel(definition.transport)})` : '';
  if (options.offerStart !== false) {
    void vscode.window.showInformationMessage(inert.message`Added ${definition.name}${runs} to your ${where}.${secrets}`, 'Start Session').then((pick) => {
      if (pick) void vscode.commands.executeCommand(commandIds.newSession, definition.id);
    });
  }
  return definition;
}
