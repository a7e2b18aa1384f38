/**
 * `ACP: New Session…`: pick a preset (presets.ts: listed first) or an agent (recently used first), start it with
 * progress, create a session in the first workspace folder and open its chat. Failures say what happened and
 * offer the agent log (startError.ts).
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { preloadConnection } from '../../host/agentHost';
import type { AgentSession } from '../../host/agentSession';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import { inert, inertText } from '../../shared/inertText';
import { commandIds } from '../../constants';
import type { Preset } from '../../agents/presets';
import { currentPresets, presetSummary, startFromPreset } from './presets';
import { startInChat, type StartInChatDeps } from './startError';

const recentKey = 'switchboard.recentAgents';

/** What the command needs. */
export interface NewSessionDeps extends StartInChatDeps {
  readonly registry: AgentRegistry;
  readonly state: vscode.Memento;
}

/** Agents ordered by last use. */
export function orderByRecent(agents: AgentDefinition[], recent: readonly string[]): AgentDefinition[] {
  const rank = (id: string) => { const i = recent.indexOf(id); return i === -1 ? Number.MAX_SAFE_INTEGER : i; };
  return [...agents].sort((a, b) => rank(a.id) - rank(b.id));
}

/** Runs the command; `agentId` skips the picker (tests, walkthrough, keybindings with args). */
export async function newSession(deps: NewSessionDeps, agentId?: string): Promise<AgentSession | undefined> {
  const recent = deps.state.get<string[]>(recentKey, []);
  let def: AgentDefinition | undefined;
  if (agentId) {
    def = deps.registry.get(agentId);
    if (!def) throw new Error(`No agent with id '${agentId}' is configured.`);
  } else {
    const agents = orderByRecent(deps.registry.all(), recent);
    type Item = vscode.QuickPickItem & { agent?: AgentDefinition; preset?: Preset; install?: true; add?: true };
    const presets: Item[] = currentPresets().map((p) => ({
      label: inert.label`$(bookmark) ${p.name}`,
      description: inertText(presetSummary(p, deps.registry.get(p.agent)?.name), 'label'),
      detail: p.scope === 'workspace' ? 'Preset from the workspace settings' : 'Preset',
      preset: p,
    }));
    const items: Item[] = presets.length ? [{ label: 'Presets', kind: vscode.QuickPickItemKind.Separator }, ...presets, { label: 'Agents', kind: vscode.QuickPickItemKind.Separator }] : [];
    items.push(...agents.map((a) => ({
      label: inertText(a.name, 'label'),
      description: recent[0] === a.id ? 'recently used' : undefined,
      detail: a.id === 'demo' ? 'Offline demo: shows streaming, a plan, a tool call, a diff and a permission request' : inertText([a.command, ...a.args].join(' '), 'label'),
      agent: a,
    })));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, {
      label: '$(cloud-download) Install Agent from Registry…', detail: 'Claude Code, Codex, Gemini CLI, OpenCode and every agent of the ACP Registry', install: true,
    }, { label: '$(add) Add Agent…', detail: 'Any ACP agent you have: a name, its command, arguments and environment', add: true });
    const picked = vscode.window.showQuickPick(items, { title: 'ACP: New Session', placeHolder: presets.length ? 'Choose a preset or the agent for the new session' : 'Choose the agent for the new session', matchOnDetail: true });
    // while the person picks: the connection's part, which the start would otherwise wait for (esbuild.mjs `lazyModules`)
    preloadConnection();
    const pick = await picked;
    if (pick?.preset) return startFromPreset(deps, pick.preset);
    if (pick?.install || pick?.add) {
      // an agent installed or added from here starts the session it was picked for
      const installed = pick.install
        ? await vscode.commands.executeCommand<{ id?: unknown } | undefined>(commandIds.installFromRegistry)
        : await vscode.commands.executeCommand<{ id?: unknown } | undefined>(commandIds.addAgent, { offerStart: false });
      def = typeof installed?.id === 'string' ? deps.registry.get(installed.id) : undefined;
    } else {
      def = pick?.agent;
    }
  }
  if (!def) return undefined;
  await deps.state.update(recentKey, [def.id, ...recent.filter((id) => id !== def.id)].slice(0, 10));
  const agent = def;
  return startInChat(deps, agent, inert.message`Starting ${agent.name}…`, (token) => deps.sessions.newSession(agent, undefined, token));
}
