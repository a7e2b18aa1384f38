/**
 * ACP: Manage Approval Rules (docs/approvals.md, "Rules"): one place to see every rule (the user's, the workspace's,
 * each open session's own), how often each one matched, and why one does not apply; to add, edit and remove rules;
 * and to reset approvals (every answer and session rule of the open sessions, and the match counts). By keyboard:
 * the list's buttons are reachable with the arrow keys and Enter opens an item's actions.
 */
import * as vscode from 'vscode';
import type { AgentSession } from '../../host/agentSession';
import { editRules, iconLabel, kindIcons, kindLabels } from '../../host/permissions/ruleEditor';
import type { RuleStore } from '../../host/permissions/ruleStore';
import { ruleKey } from '../../host/permissions/rules/ruleSet';
import type { Rule, RuleKind } from '../../host/permissions/rules/ruleSet';
import { ruleKinds } from '../../host/permissions/rules/ruleSettings';
import { inert, inertText } from '../../shared/inertText';

interface RuleItem extends vscode.QuickPickItem {
  readonly rule?: Rule;
  readonly session?: AgentSession;
  readonly run?: () => Promise<void>;
}

const editButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Edit this rule' };
const removeButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Remove this rule' };
const scopeLabels = { user: 'user settings', workspace: 'workspace settings', session: 'this session' } as const;

/**
 * Opens the rules list; it stays open while rules are edited or removed. A session rule made here belongs to the
 * session of the rule edited, or to the active session.
 */
export async function manageRules(store: RuleStore, sessions: () => readonly AgentSession[], active: () => AgentSession | undefined): Promise<void> {
  const pick = vscode.window.createQuickPick<RuleItem>();
  pick.title = 'ACP: Manage Approval Rules';
  pick.placeholder = 'Rules answer permission requests by what they carry: deny wins over ask, ask over allow';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const refresh = async (): Promise<void> => {
    pick.items = await items(store, sessions(), active);
  };
  // an action opens quick inputs of its own, which hide the list: it shows again when the action is done
  let nested = false;
  const busy = async (work: () => Promise<void>): Promise<void> => {
    nested = true;
    try {
      await work();
    } catch (error) {
      void vscode.window.showErrorMessage(inert.message`The rules could not be changed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      nested = false;
    }
    pick.value = '';
    await refresh();
    pick.show();
  };
  const listener = store.onDidChange(() => void refresh());
  pick.onDidTriggerItemButton((e) => {
    const { rule, session } = e.item;
    if (!rule) return;
    if (e.button === removeButton) void busy(() => removeRule(store, rule, session));
    else void busy(() => editRule(store, rule, session ?? active()));
  });
  pick.onDidAccept(() => {
    const item = pick.selectedItems[0];
    if (item?.run) void busy(item.run);
    else if (item?.rule) void busy(() => ruleActions(store, item.rule as Rule, item.session ?? active()));
  });
  pick.onDidHide(() => {
    if (nested) return;
    listener.dispose();
    pick.dispose();
  });
  await refresh();
  pick.show();
}

async function items(store: RuleStore, sessions: readonly AgentSession[], active: () => AgentSession | undefined): Promise<RuleItem[]> {
  const counts = store.counts();
  const { rules, errors } = store.settingsRules();
  const trusted = vscode.workspace.isTrusted;
  const ruleItem = (rule: Rule, session?: AgentSession): RuleItem => {
    const n = counts[ruleKey(rule)] ?? 0;
    const inactive = rule.scope === 'workspace' && rule.action === 'allow' && !trusted;
    return {
      rule, ...(session ? { session } : {}),
      label: iconLabel(kindIcons[rule.kind], rule.pattern),
      description: inert.label`${rule.action} · ${kindLabels[rule.kind].toLowerCase()} · ${session ? `session: ${inertText(session.thread.titles.shown, 'plain', 60)}` : scopeLabels[rule.scope]} · matched ${String(n)} time${n === 1 ? '' : 's'}`,
      ...(inactive ? { detail: '$(warning) Does not apply: this workspace is not trusted (a workspace allow rule applies only in a trusted workspace)' } : {}),
      buttons: [editButton, removeButton],
    };
  };
  const out: RuleItem[] = [];
  const own = sessions.flatMap((s) => s.permissions.rules.own.map((r) => ruleItem(r, s)));
  const configured = rules.map((r) => ruleItem(r));
  if (configured.length + own.length === 0) out.push({ label: '$(info) No rules yet', description: 'make one from a permission card, or add one here' });
  if (configured.length > 0) out.push({ label: 'Settings', kind: vscode.QuickPickItemKind.Separator }, ...configured);
  if (own.length > 0) out.push({ label: 'Sessions', kind: vscode.QuickPickItemKind.Separator }, ...own);
  for (const e of errors) out.push({ label: '$(error) Not a rule', detail: inertText(e, 'label', 300) });
  out.push(
    { label: 'Actions', kind: vscode.QuickPickItemKind.Separator },
    { label: '$(add) Add a Rule…', run: () => addRule(store, active()) },
    { label: '$(discard) Reset Approvals…', description: 'forget every answer and session rule of the open sessions, and the match counts', run: () => resetApprovals(store, () => sessions) },
    { label: '$(settings-gear) Open the Setting', description: 'switchboard.permissions.rules', run: async () => { await vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.permissions.rules'); } },
  );
  return out;
}

/** Enter on a rule: its actions, by keyboard (the buttons on the row do the same by mouse). */
async function ruleActions(store: RuleStore, rule: Rule, session: AgentSession | undefined): Promise<void> {
  const picked = await vscode.window.showQuickPick([
    { label: '$(edit) Edit…', action: 'edit' as const },
    { label: '$(trash) Remove', action: 'remove' as const },
  ], { title: inert.label`Rule ${rule.pattern}`, ignoreFocusOut: true });
  if (picked?.action === 'edit') await editRule(store, rule, session);
  else if (picked?.action === 'remove') await removeRule(store, rule, session);
}

async function addRule(store: RuleStore, session: AgentSession | undefined): Promise<void> {
  const kind = await vscode.window.showQuickPick(ruleKinds.map((k) => ({ label: iconLabel(kindIcons[k], kindLabels[k]), ruleKind: k })), { title: 'Add a Rule: about what', ignoreFocusOut: true });
  if (!kind) return;
  const examples: Readonly<Record<RuleKind, string>> = { command: 'npm test *', read: 'src/**', write: 'src/**', mcpTool: 'github/*', host: '*.github.com' };
  keepSessionRules(await editRules(store, [{ kind: kind.ruleKind, pattern: examples[kind.ruleKind] }], noCheck), session);
}

const noCheck = () => Promise.resolve({ allowedBy: [] });

/** The session rules made here go to the session (the editor saved the others in settings). */
function keepSessionRules(made: readonly Rule[], session: AgentSession | undefined): void {
  const own = made.filter((r) => r.scope === 'session');
  if (own.length === 0) return;
  if (!session) {
    void vscode.window.showWarningMessage('No chat is active: a session rule belongs to a session. Open its chat and make the rule again.');
    return;
  }
  for (const r of own) session.permissions.rules.add(r);
}

async function editRule(store: RuleStore, rule: Rule, session: AgentSession | undefined): Promise<void> {
  const made = await editRules(store, [{ kind: rule.kind, pattern: rule.pattern }], noCheck);
  if (made.length === 0) return;
  keepSessionRules(made, session);
  // the edited rule replaces the old one (editRules saved the new one already, at its scope)
  await removeRule(store, rule, session, made[0]);
}

async function removeRule(store: RuleStore, rule: Rule, session: AgentSession | undefined, keep?: Rule): Promise<void> {
  if (keep && keep.kind === rule.kind && keep.pattern === rule.pattern && keep.action === rule.action && keep.scope === rule.scope) return;
  if (rule.scope === 'session') {
    session?.permissions.rules.remove(rule);
    return;
  }
  await store.remove(rule);
}

async function resetApprovals(store: RuleStore, sessions: () => readonly AgentSession[]): Promise<void> {
  const open = sessions();
  const answer = await vscode.window.showWarningMessage(
    inert.message`Reset approvals? Every answer you gave in ${String(open.length)} open session${open.length === 1 ? '' : 's'} and their session rules are forgotten, and the match counts start again. Rules in settings stay.`,
    { modal: true }, 'Reset Approvals');
  if (answer !== 'Reset Approvals') return;
  for (const s of open) s.permissions.resetApprovals();
  await store.resetCounts();
}
