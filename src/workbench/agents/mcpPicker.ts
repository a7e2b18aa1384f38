/**
 * ACP: Choose MCP Servers for Agent… (docs/editor-tools.md, "VS Code's MCP servers"): for one agent, a list with
 * the editor's tools and each of VS Code's MCP servers, checked when the agent gets it; the choice is written to the
 * user's settings (`switchboard.editorTools.disabledFor`, `switchboard.mcp.vscodeServers`) and applies to the
 * agent's next session.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { editorToolsOffSetting, type EditorMcp } from '../../host/lifecycle/editorTools/editorMcp';
import { vscodeServersSetting } from '../../host/lifecycle/vscodeMcp';
import { chosenFor } from '../../host/lifecycle/vscodeMcpConfig';
import { inertText } from '../../shared/inertText';

const editorItem = '\0editor';

/** Asks for an agent (unless given), then for its tools and servers; writes the choice. */
export async function chooseMcpServers(editorTools: EditorMcp, agents: readonly AgentDefinition[], agent?: AgentDefinition): Promise<void> {
  const picked = agent ?? (await vscode.window.showQuickPick(agents.map((a) => ({ label: inertText(a.name, 'label'), agent: a })), {
    title: 'ACP: Choose MCP Servers for Agent', placeHolder: 'Which agent?',
  }))?.agent;
  if (!picked) return;
  const config = vscode.workspace.getConfiguration('switchboard');
  const names = editorTools.vscodeServers?.names() ?? [];
  const chosen = chosenFor(config.get<unknown>(vscodeServersSetting), picked.id, names.map((n) => n.name));
  const items: (vscode.QuickPickItem & { id: string })[] = [
    { id: editorItem, label: '$(tools) The editor\'s tools', description: 'vscode', detail: 'Diagnostics, symbols, definitions, references, search, tasks (run_task asks first)', picked: editorTools.enabled(picked.id) },
    ...names.map((n) => ({ id: n.name, label: inertText(n.name, 'label'), description: inertText(n.label, 'label'), picked: chosen.includes(n.name) })),
  ];
  const answer = await vscode.window.showQuickPick(items, {
    canPickMany: true, title: inertText(`MCP servers for ${picked.name}`, 'label'),
    placeHolder: names.length ? 'Checked: the agent gets it in its next session' : 'VS Code has no MCP servers configured (MCP: Open User Configuration)',
  });
  if (!answer) return;
  const ids = new Set(answer.map((i) => i.id));
  const off = config.inspect<unknown>(editorToolsOffSetting)?.globalValue;
  const offList = (Array.isArray(off) ? off : []).filter((id): id is string => typeof id === 'string' && id !== picked.id);
  await config.update(editorToolsOffSetting, ids.has(editorItem) ? (offList.length ? offList : undefined) : [...offList, picked.id], vscode.ConfigurationTarget.Global);
  const current = config.inspect<unknown>(vscodeServersSetting)?.globalValue;
  const byAgent: Record<string, unknown> = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current as Record<string, unknown> } : { '*': current ?? 'all' };
  const servers = names.map((n) => n.name).filter((n) => ids.has(n));
  byAgent[picked.id] = servers.length === names.length ? 'all' : servers.length ? servers : 'none';
  await config.update(vscodeServersSetting, byAgent, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(inertText(`${picked.name} gets ${ids.has(editorItem) ? 'the editor\'s tools' : 'no editor tools'} and ${servers.length ? servers.join(', ') : 'none of VS Code\'s MCP servers'} from its next session on.`, 'message'));
}
