/**
 * Presets in the workbench (docs/sessions.md "A home for all sessions"; the pure part is src/agents/presets.ts):
 * - New Session lists them first; starting from one starts its agent (with only its MCP servers when it names
 *   some), then sets its model, mode and other config options (`session/set_config_option`, or `session/set_mode`
 *   for a legacy mode) and its approval level before the chat opens, and puts its prompt prefix before the first prompt. What the agent
 *   does not offer is said in a warning; the session starts anyway.
 * - ACP: Save as Preset… keeps a running session's agent, model, mode, other options and chosen approval level (and the MCP servers of
 *   the setting) under a name, with an optional prompt prefix, in the user's or the workspace's settings.
 * Workspace presets obey workspace trust like `switchboard.agents` (and `switchboard.presets` is a restricted
 * setting in package.json).
 */
import * as vscode from 'vscode';
import { capturePreset, effectivePresets, presetsSetting, presetSteps, type Preset, type ScopedPreset } from '../../agents/presets';
import type { AgentSession } from '../../host/agentSession';
import { parseMcpServers } from '../../host/lifecycle/mcpServers';
import { levelInfo } from '../../shared/approvalLevel';
import { inert, inertText } from '../../shared/inertText';
import type { AgentRegistry } from '../../host/lifecycle/agentRegistry';
import { startInChat, type StartInChatDeps } from './startError';
import type { WorktreeService } from '../worktrees/worktreeService';
import { sessionInWorktree } from '../worktrees/worktreeSessions';

/** What starting from a preset needs (New Session's dependencies have it). */
export interface PresetStartDeps extends StartInChatDeps {
  readonly registry: AgentRegistry;
  /** Where a preset with `"worktree": true` starts its session (docs/worktrees.md). */
  readonly worktrees?: WorktreeService;
}

const warned = new Set<string>();

/** The presets that apply now (an invalid one is reported once, in a warning, and skipped). */
export function currentPresets(): ScopedPreset[] {
  const inspected = vscode.workspace.getConfiguration('switchboard').inspect(presetsSetting);
  const { presets, errors } = effectivePresets(inspected, vscode.workspace.isTrusted);
  for (const e of errors) {
    if (warned.has(e)) continue;
    warned.add(e);
    void vscode.window.showWarningMessage(inert.message`Switchboard: ${e}`, 'Open Settings').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', `switchboard.${presetsSetting}`);
    });
  }
  return presets;
}

/** A preset's one-line summary: "Claude Code · model smart · mode code". */
export function presetSummary(p: Preset, agentName: string | undefined): string {
  return [agentName ?? p.agent, p.model && `model ${p.model}`, p.mode && `mode ${p.mode}`, p.approvals && `approvals: ${levelInfo[p.approvals].short}`, p.worktree && 'own worktree', p.promptPrefix && 'prompt prefix'].filter(Boolean).join(' · ');
}

/**
 * Starts a session from a preset: its agent, its MCP servers, then its settings before the chat opens. Resolves to
 * the session (undefined when the agent is not configured or did not start: each said in a message).
 */
export async function startFromPreset(deps: PresetStartDeps, preset: Preset): Promise<AgentSession | undefined> {
  const def = deps.registry.get(preset.agent);
  if (!def) {
    void vscode.window.showErrorMessage(inert.message`The preset "${preset.name}" uses the agent '${preset.agent}', which is not configured.`, 'Open Settings').then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.agents');
    });
    return undefined;
  }
  return startInChat(deps, def, inert.message`Starting ${def.name} (preset "${preset.name}")…`, async (token) => {
    const mcp = preset.mcpServers ? { mcpServers: preset.mcpServers } : {};
    const worktrees = deps.worktrees;
    const s = preset.worktree && worktrees
      ? (await sessionInWorktree({ ...deps, worktrees }, def, mcp, token)).session
      : await deps.sessions.newSession(def, undefined, token, mcp);
    await applyPreset(s, preset);
    return s;
  }, preset.name);
}

/** Sets what the preset says on a new session (one request at a time: each answer is the complete set of options). */
export async function applyPreset(session: AgentSession, preset: Preset): Promise<void> {
  const problems: string[] = [];
  const t = session.thread;
  for (const step of presetSteps(preset, t.configOptions, t.availableModes, t.currentModeId)) {
    try {
      if (step.kind === 'config') await session.setConfigOption(step.configId, step.value);
      else if (step.kind === 'mode') await session.setMode(step.modeId);
      else problems.push(step.message);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (preset.promptPrefix) session.promptPrefix = preset.promptPrefix;
  if (preset.approvals) session.permissions.setLevel(preset.approvals);
  if (problems.length) void vscode.window.showWarningMessage(inert.message`The preset "${preset.name}" was applied in part: ${problems.join('; ')}.`);
}

/** What Save as Preset asks; tests answer it. */
export interface PresetAnswers {
  readonly name: string;
  readonly promptPrefix?: string;
  readonly scope: 'user' | 'workspace';
}

/** Asks for the name, the prompt prefix and where to keep it; undefined when the user cancelled. */
async function askPreset(session: AgentSession, suggested: string): Promise<PresetAnswers | undefined> {
  const name = await vscode.window.showInputBox({
    title: 'Save as Preset (1/3)', prompt: inert.label`A name for ${session.host.definition.name} with these settings`, value: suggested,
    validateInput: (v) => (v.trim() ? undefined : 'Enter a name.'),
  });
  if (!name?.trim()) return undefined;
  const promptPrefix = await vscode.window.showInputBox({ title: 'Save as Preset (2/3)', prompt: 'Optional: text put before the first prompt of every session started from it (Enter for none)' });
  if (promptPrefix === undefined) return undefined;
  const items: (vscode.QuickPickItem & { scope: 'user' | 'workspace' })[] = [{ label: 'User Settings', description: 'in every workspace, synced with your settings', scope: 'user' }];
  if (vscode.workspace.workspaceFolders?.length) items.push({ label: 'Workspace Settings', description: 'shared with this workspace (used only when it is trusted)', scope: 'workspace' });
  const where = items.length === 1 ? items[0] : await vscode.window.showQuickPick(items, { title: 'Save as Preset (3/3)', placeHolder: 'Where to keep the preset' });
  if (!where) return undefined;
  return { name: name.trim(), ...(promptPrefix.trim() ? { promptPrefix } : {}), scope: where.scope };
}

/**
 * ACP: Save as Preset…: the session's agent, model, mode and other config options, and the servers of
 * `switchboard.mcpServers`, under a name (one with the same name in that scope is replaced). `answers` skips the
 * questions (tests).
 */
export async function saveAsPreset(session: AgentSession | undefined, answers?: PresetAnswers): Promise<Preset | undefined> {
  if (!session) return void vscode.window.showInformationMessage('No session to save as a preset: open a Switchboard chat first.');
  const t = session.thread;
  const captured = capturePreset(session.host.definition.id, t.configOptions, t.currentModeId, session.permissions.chosenLevel);
  const suggested = [session.host.definition.name, captured.model, captured.mode].filter(Boolean).join(' ');
  const a = answers ?? await askPreset(session, inertText(suggested, 'plain', 100));
  if (!a) return undefined;
  const config = vscode.workspace.getConfiguration('switchboard');
  const names = parseMcpServers(config.get<unknown>('mcpServers')).servers.map((m) => m.name);
  const preset: Preset = { name: a.name, ...captured, ...(names.length ? { mcpServers: names } : {}), ...(a.promptPrefix ? { promptPrefix: a.promptPrefix } : {}) };
  const inspected = config.inspect<unknown[]>(presetsSetting);
  const existing = (a.scope === 'user' ? inspected?.globalValue : inspected?.workspaceValue) ?? [];
  const others = (Array.isArray(existing) ? existing : []).filter((p) => !(typeof p === 'object' && p !== null && (p as { name?: unknown }).name === a.name));
  await config.update(presetsSetting, [...others, preset], a.scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace);
  vscode.window.setStatusBarMessage(inert.label`Saved the preset "${a.name}": New Session lists it first.`, 5000);
  return preset;
}
