/**
 * The VS Code side of the permission broker: the approval level's settings (`switchboard.permissions.level`, and the
 * older `switchboard.permissions.autoApprove`), the
 * workspace folders (roots), and the notification that offers a request when no chat of its session is
 * visible. VS Code cannot close a notification from an extension (microsoft/vscode#48960, #134777), so a
 * notification answered after the chat (or after a cancel) stays until dismissed and its click does nothing.
 */
import * as vscode from 'vscode';
import { settingsLevel } from '../../shared/approvalLevel';
import { toUncoveredPolicy } from './grantLedger';
import type { PermissionEnvironment, PermissionPrompt } from './permissionBroker';
import type * as RuleEditor from './ruleEditor';
import type { RuleStore } from './ruleStore';
import { inert, inertText } from '../../shared/inertText';

/** The rule editor, required when it is first opened (its own bundle: esbuild.mjs, `lazyModules`). */
function ruleEditor(): typeof RuleEditor {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (docs/performance.md, "Start fast, ship small")
  return require('./ruleEditor') as typeof RuleEditor;
}

interface OptionItem extends vscode.MessageItem {
  readonly optionId: string;
}

/** The extension's rules (set at activation: src/core.ts); none before, and in tests that do not set them. */
let store: RuleStore | undefined;

/** Which session folders are worktrees of their own (src/core.ts sets it: docs/worktrees.md); none before. */
let isolatedFolder: ((cwd: string) => boolean) | undefined;

/** Gives the broker's environment the test for a session's own worktree (Allow Everything exists only there). */
export function useWorktreeIsolation(test: ((cwd: string) => boolean) | undefined): void {
  isolatedFolder = test;
}

/** Gives the broker's environment the extension's rules. */
export function useRuleStore(rules: RuleStore | undefined): void {
  store = rules;
}

/** The broker's environment in VS Code. */
export const vscodePermissionEnvironment: PermissionEnvironment = {
  rules: (roots, own) => store?.rules(roots, own) ?? Promise.resolve(undefined),
  parser: () => store?.parser() ?? Promise.resolve(undefined),
  ruleMatched: (rules) => store?.matched(rules),
  makeRules: (drafts, check) => (store ? ruleEditor().editRules(store, drafts, check) : Promise.resolve([])),
  defaultLevel: () => settingsLevel(setByUser('permissions.level'), trustedSetting('permissions.autoApprove')),
  uncoveredPolicy: () => toUncoveredPolicy(trustedSetting('permissions.uncoveredActions')),
  isolated: (cwd) => isolatedFolder?.(cwd) ?? false,
  notify: async (prompt: PermissionPrompt) => {
    const items: OptionItem[] = prompt.options.map((o) => ({ title: inertText(o.name, 'message', 40), optionId: o.optionId }));
    const message = prompt.fromClient
      ? inert.message`Switchboard asks (none of your answers covers it): ${prompt.agentName}: ${prompt.title}`
      : inert.message`${prompt.agentName} asks for permission: ${prompt.title}`;
    const pick = await vscode.window.showInformationMessage(message, ...items);
    return pick?.optionId;
  },
};

/** A `switchboard.*` setting; an untrusted workspace must not loosen permissions through its own settings. */
function trustedSetting(key: string): unknown {
  const config = vscode.workspace.getConfiguration('switchboard');
  if (vscode.workspace.isTrusted) return config.get(key);
  const inspected = config.inspect(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** A `switchboard.*` setting only where the user set it (an untrusted workspace's value is ignored); else undefined. */
function setByUser(key: string): unknown {
  const inspected = vscode.workspace.getConfiguration('switchboard').inspect(key);
  if (!inspected) return undefined;
  if (vscode.workspace.isTrusted) return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
  return inspected.globalValue;
}
