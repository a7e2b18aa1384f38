/**
 * `ACP: Add Agent…`: a short guided flow (name, command, arguments, environment, where to save) that appends
 * an entry to `switchboard.agents`, validated by the same schema that reads the setting. Each step has Back;
 * Esc ends the flow. Variables that look like secrets go to SecretStorage (the store `env_var` logins use,
 * docs/security.md#secrets), never to settings. At the end it offers Start Session.
 */
import * as vscode from 'vscode';
import { type AgentDefinition, parseAgentDefinition } from '../../agents/agentDefinition';
import { agentIdFor, commandProblem, DraftLineError, parseEnvPairs, splitSecrets, splitWords } from '../../agents/agentDraft';
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
const totalSteps = 5;

interface Draft {
  name: string;
  command: string;
  args: string;
  env: string;
}

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

/** One step of the flow by its number. */
async function runStep(step: number, draft: Draft, known: readonly AgentDefinition[]): Promise<StepResult<string>> {
  const common = { title, step: step + 1, totalSteps, back: step > 0 };
  switch (step) {
    case 0: {
      const names = new Set(known.map((a) => a.name.trim().toLowerCase()));
      return textStep({
        ...common, value: draft.name, prompt: 'The agent\'s name, as New Session shows it', placeholder: 'e.g. My Agent',
        validate: (v) => (!v.trim() ? 'Enter a name.' : names.has(v.trim().toLowerCase()) ? `An agent named "${v.trim()}" already exists: choose another name.` : undefined),
      });
    }
    case 1:
      return textStep({
        ...common, value: draft.command, prompt: 'The command that starts it: a name on your PATH (e.g. npx) or a path. The button browses for a file.',
        placeholder: 'e.g. npx', validate: (v) => (v.trim() ? undefined : 'Enter a command.'),
        // a command not found warns once; Enter again keeps it (it may be installed later)
        warn: async (v) => {
          const problem = await commandProblem(v.trim(), cwdForLookup());
          return problem && `${problem} Press Enter to keep it anyway, or browse for the file.`;
        },
        browse: { tooltip: 'Browse for the executable…', run: browseForCommand },
      });
    case 2:
      return textStep({
        ...common, value: draft.args, prompt: 'Arguments, separated by spaces; quote a value that has spaces ("like this"). Empty for none.',
        placeholder: 'e.g. --experimental-acp --model "my model"', validate: (v) => lineProblem(() => splitWords(v)),
      });
    case 3:
      return textStep({
        ...common, value: draft.env, prompt: 'Environment variables, KEY=VALUE separated by spaces (optional). Keys, tokens and passwords are kept in secret storage, not in settings.',
        placeholder: 'e.g. DEBUG=1 MY_API_KEY=…', validate: (v) => lineProblem(() => parseEnvPairs(v)),
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
  const draft: Draft = { name: '', command: '', args: '', env: '' };
  const keys: (keyof Draft)[] = ['name', 'command', 'args', 'env'];
  let target = '';
  for (let step = 0; step < totalSteps;) {
    const result = await runStep(step, draft, known);
    if (result.kind === 'cancel') return undefined;
    if (result.kind === 'back') {
      step--;
      continue;
    }
    if (step < keys.length) draft[keys[step]] = result.value;
    else target = result.value;
    step++;
  }
  const lists = settingLists();
  const taken = new Set([...known.map((a) => a.id), ...[...lists.user, ...lists.workspace].map((e) => (e as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string')]);
  const id = agentIdFor(draft.name, taken);
  const { plain, secret } = splitSecrets(parseEnvPairs(draft.env));
  const args = splitWords(draft.args);
  const entry = { id, name: draft.name.trim(), command: draft.command.trim(), ...(args.length ? { args } : {}), ...(Object.keys(plain).length ? { env: plain } : {}) };
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
  if (options.offerStart !== false) {
    void vscode.window.showInformationMessage(inert.message`Added ${definition.name} to your ${where}.${secrets}`, 'Start Session').then((pick) => {
      if (pick) void vscode.commands.executeCommand(commandIds.newSession, definition.id);
    });
  }
  return definition;
}
