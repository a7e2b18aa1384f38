/**
 * The extension's core: builds the services, registers the commands, and returns the API. src/extension.ts
 * loads it at idle after activation, or before that on first use (a command, a view shown, a chat panel
 * restored, the API read): see docs/performance.md, "Start fast, ship small".
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi, SwitchboardTestApi } from './api';
import { addSelectionToChat } from './workbench/prompts/addSelectionToChat';
import { newSession } from './workbench/agents/newSession';
import { currentPresets, startFromPreset } from './workbench/agents/presets';
import type * as ProviderFlow from './workbench/agents/providerFlow';
import type { ClientInfo } from './host/agentHost';
import { clientCapabilities } from './host/features';
import type { AgentSession } from './host/agentSession';
import { AgentRegistry } from './host/lifecycle/agentRegistry';
import { openDiff, registerDiffEditor } from './host/files/diffEditor';
import type { OpenDiffArgs } from './host/files/diffEditor';
import { FollowStatusBar } from './workbench/follow/followStatusBar';
import { onAnySession } from './workbench/sessions/anySession';
import type * as ReviewChanges from './workbench/review/reviewChanges';
import { registerDiffTitleActions } from './workbench/review/diffTitleActions';
import { SessionManager } from './host/sessionManager';
import { CheckpointService } from './host/files/checkpointService';
import { TranscriptStore } from './host/history/transcriptStore';
import { Redactor, redactingLog } from './host/auth/redactor';
import { EditorMcp } from './host/lifecycle/editorTools/editorMcp';
import { VsCodeMcp } from './host/lifecycle/vscodeMcp';
import { showEditorToolsLog } from './workbench/agents/editorToolsLog';
import { chooseMcpServers } from './workbench/agents/mcpPicker';
import { registerAgentLifecycle } from './workbench/agents/agentLifecycle';
import { registerSessions, type PreRegistered } from './workbench/sessions/sessionsFeature';
import { threadSnapshot } from './thread/view/toView';
import { headerFacts } from './chatHost/chatBinding';
import type { StartingChat } from './chatHost/startingChat';
import { PromptMemory } from './host/prompts/promptHistory';
import { ReopenPolicy } from './host/history/reopenPolicy';
import { RegistryFeature } from './workbench/registry/registryFeature';
import { inertText, useSecretMasker } from './shared/inertText';
import { commandIds, promptSentKey } from './constants';
import { ownedProcesses, shutdownGraceMs } from './agents/ownedProcesses';
import { ProcessWatchdog } from './agents/processWatchdog';
import { useRuleStore, useWorktreeIsolation } from './host/permissions/permissionEnvironment';
import { RuleStore } from './host/permissions/ruleStore';
import type * as ManageRules from './workbench/rules/manageRules';
import { ApprovalStatusBar, setApprovalLevel } from './workbench/rules/approvalLevel';
import { WorktreeService } from './workbench/worktrees/worktreeService';
import { registerWorktrees, worktreeLookup } from './workbench/worktrees/worktreeRegistration';

/** The model-provider form, Review Changes and Manage Rules: required at their first use (each its own bundle: esbuild.mjs, `lazyModules`). */
const lazy = {
  /* eslint-disable @typescript-eslint/no-require-imports -- lazy parts, loaded on first use (docs/performance.md, "Start fast, ship small") */
  providerFlow: () => require('./workbench/agents/providerFlow') as typeof ProviderFlow,
  reviewChanges: () => require('./workbench/review/reviewChanges') as typeof ReviewChanges,
  manageRules: () => require('./workbench/rules/manageRules') as typeof ManageRules,
  /* eslint-enable @typescript-eslint/no-require-imports */
};

/** Stops every agent and terminal process quickly; set while the extension is active. */
let shutdown: (() => Promise<void>) | undefined;

/**
 * Builds everything and registers the commands; the views and the panel serializer that activation registered
 * (`surfaces`) forward to what this builds. `how`: what loaded the core, for the log (src/coreLoader.ts).
 */
export function activateCore(context: vscode.ExtensionContext, surfaces: PreRegistered, how: string): SwitchboardApi {
  const started = performance.now();
  const pkg = context.extension.packageJSON as { name: string; displayName: string; version: string };
  const clientInfo: ClientInfo = { name: pkg.name, title: pkg.displayName, version: pkg.version };
  // one masker for the whole extension: its own log, every agent log, the chat's notices, the transcript store
  const redactor = new Redactor();
  useSecretMasker((text) => redactor.redact(text)); // notifications, quick picks, titles: every workbench sink
  const log = redactingLog(vscode.window.createOutputChannel('Switchboard', { log: true }), redactor);
  const registryFeature = new RegistryFeature(context, log);
  // the approval rules (docs/approvals.md, "Rules"): the shell parser's grammar ships in dist/
  const rules = new RuleStore(context.globalState, context.asAbsolutePath('dist'), log);
  useRuleStore(rules);
  const registry = new AgentRegistry(context.extensionUri, log, () => registryFeature.definitions(), vscode.Uri.joinPath(context.globalStorageUri, 'demo-sessions').fsPath);
  const store = new TranscriptStore(context, log, redactor);
  // no agent outlives its window, even when the extension host dies before deactivate finished
  // (docs/process-lifetime.md)
  const watchdog = ProcessWatchdog.start({
    scriptPath: context.asAbsolutePath('dist/agents/watchdog.js'),
    onExit: (code, signal) => log.warn(`the process watchdog ended (${signal ?? `code ${code}`}); restarting it`),
  });
  shutdown = async () => {
    await ownedProcesses.stopAll(shutdownGraceMs);
    watchdog?.dispose();
  };
  // the surfaces above the session manager reach it as functions: they exist once activation is done
  // the user's settings folder: the extension's global storage is <User>/globalStorage/<extension id>
  const vscodeServers = new VsCodeMcp({ userDir: path.dirname(path.dirname(context.globalStorageUri.fsPath)), secrets: context.secrets, redactor });
  const editorTools = new EditorMcp({ extensionPath: context.extensionPath, logDir: context.logUri.fsPath, redactor, vscodeServers });
  // sessions in a worktree of their own, under the extension's global storage (docs/worktrees.md)
  const worktrees = new WorktreeService(context.globalStorageUri.fsPath, log, (text) => redactor.redact(text));
  useWorktreeIsolation((cwd) => worktrees.isIsolated(cwd)); // Allow Everything exists only there
  context.subscriptions.push(editorTools, worktrees, { dispose: () => useWorktreeIsolation(undefined) });
  const sessions = new SessionManager({
    clientInfo,
    secretStorage: context.secrets,
    redactor,
    store,
    // a restart starts the agent as configured now (an edited command or env), not as it was started
    definitionOf: (id) => registry.get(id),
    isChatVisible: (key) => chats.isVisible(key),
    reopen: new ReopenPolicy(context.globalState),
    meta: context.workspaceState, // the user's session titles and archive flags (src/host/history/sessionMeta.ts)
    providerPrompter: { ask: (...args) => lazy.providerFlow().vscodeProviderPrompter.ask(...args) },
    // in the workspace's storage, next to its transcripts (the global storage when no folder is open)
    checkpoints: new CheckpointService(vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'checkpoints').fsPath, log),
    editorTools, // the editor's MCP server (docs/editor-tools.md)
    isolated: (cwd) => worktrees.isIsolated(cwd),
  });
  context.subscriptions.push(log, sessions, registryFeature, rules, { dispose: () => useRuleStore(undefined) });
  const sessionsFeature = registerSessions(context, surfaces, registry, sessions, store, new PromptMemory(context.workspaceState), log, worktreeLookup(worktrees, sessions));
  const { chats } = sessionsFeature;

  // the walkthrough's last step completes once a first prompt was sent (activation set its context key)
  const watchFirstPrompt = (session: AgentSession) => {
    if (context.globalState.get(promptSentKey, false)) return;
    const sub = session.thread.onDidChange((c) => {
      if (c.type !== 'entry' || session.thread.entries[c.index]?.kind !== 'user') return;
      sub.dispose();
      void context.globalState.update(promptSentKey, true);
      void vscode.commands.executeCommand('setContext', promptSentKey, true);
    });
  };
  const openChatWith = (show: (session: AgentSession, starting?: StartingChat) => void) => (session: AgentSession, starting?: StartingChat) => {
    if (!chats.has(session.key)) watchFirstPrompt(session);
    show(session, starting);
  };
  const openChat = openChatWith((s, starting) => chats.open(s, false, starting));
  const activeSession = (): AgentSession | undefined => chats.activeSession();
  const deps = { registry, sessions, state: context.globalState, openChat, worktrees };
  // New Session and a preset open the chat's tab while the agent starts (src/chatHost/startingChat.ts)
  const startingDeps = { ...deps, startChat: (agentName: string) => chats.startChat(agentName, log) };
  const worktreeFeature = registerWorktrees({ ...deps, extensionUri: context.extensionUri, activeSession });
  context.subscriptions.push(...worktreeFeature.disposables);
  const lifecycle = registerAgentLifecycle({ registry, sessions, log, activeSession, openChat });
  context.subscriptions.push(lifecycle);
  const followBar = new FollowStatusBar(() => activeSession()?.follow, onAnySession(sessions, (s) => s.follow.onDidToggle));
  const approvalsBar = new ApprovalStatusBar(activeSession, onAnySession(sessions, (s) => s.permissions.onDidChangeLevel));
  // a second after a session opens, what its first prompt and first permission card need is made ready: the
  // checkpoints of its folders, and (once) the shell parser of the rules (docs/performance.md "The first permission card")
  const warmed = new WeakSet<AgentSession>();
  context.subscriptions.push(sessions.onDidChangeSessions(() => {
    for (const s of sessions.sessions.filter((x) => !warmed.has(x))) {
      warmed.add(s);
      setTimeout(() => {
        void rules.parser();
        void s.checkpoints.warm();
      }, 1000).unref();
    }
  }));
  context.subscriptions.push(followBar, approvalsBar, registerDiffEditor(context), vscode.window.tabGroups.onDidChangeTabs(() => followBar.update()));
  // a chat panel's `active` is current once its view state changes (after the tab events): the bars follow it
  context.subscriptions.push(chats.onDidChange(() => { followBar.update(); approvalsBar.update(); }));

  context.subscriptions.push(
    vscode.commands.registerCommand(commandIds.newSession, async (agentId?: unknown) => { await newSession(startingDeps, typeof agentId === 'string' ? agentId : undefined); }),
    vscode.commands.registerCommand(commandIds.chatViewNewSession, async () => { await newSession({ ...deps, openChat: openChatWith((s) => chats.showInView(s)) }); }),
    vscode.commands.registerCommand(commandIds.addSelectionToChat, () => addSelectionToChat()),
    vscode.commands.registerCommand(commandIds.cancelTurn, () => activeSession()?.cancel()),
    vscode.commands.registerCommand(commandIds.followAgent, () => {
      const session = activeSession();
      if (!session) return void vscode.window.showInformationMessage('Open a Switchboard chat first: Follow Agent works on the active session.');
      session.follow.toggle();
      followBar.update();
    }),
    vscode.commands.registerCommand(commandIds.reviewChanges, () => {
      const session = activeSession();
      return lazy.reviewChanges().reviewChanges(session, () => (session ? chats.panels.get(session.key)?.panel.viewColumn : undefined));
    }),
    registerDiffTitleActions(() => {
      const active = activeSession();
      return active ? [active, ...sessions.sessions.filter((s) => s !== active)] : sessions.sessions;
    }, onAnySession(sessions, (s) => s.changes.onDidChange)),
    vscode.commands.registerCommand(commandIds.openDiff, (args: OpenDiffArgs) => openDiff(args)),
    vscode.commands.registerCommand(commandIds.manageRules, () => lazy.manageRules().manageRules(rules, () => sessions.sessions, activeSession)),
    // from the palette or the status bar: the active session; from a chat's header: its session's key
    vscode.commands.registerCommand(commandIds.setApprovalLevel, (key?: unknown) => setApprovalLevel(typeof key === 'string' ? sessions.get(key) : activeSession())),
    vscode.commands.registerCommand(commandIds.showAgentLog, async () => {
      const session = activeSession();
      if (session) return sessions.logFor(session.host.definition).show(true);
      const pick = await vscode.window.showQuickPick(registry.all().map((a) => ({ label: inertText(a.name, 'label'), agent: a })), { title: 'ACP: Show Agent Log' });
      if (pick) sessions.logFor(pick.agent).show(true);
    }),
    vscode.commands.registerCommand(commandIds.showEditorToolsLog, () => showEditorToolsLog(activeSession())),
    vscode.commands.registerCommand(commandIds.chooseMcpServers, () => chooseMcpServers(editorTools, registry.all())),
  );

  const api: SwitchboardApi = {
    ...sessionsFeature.api,
    newSession: async (agentId, options) => {
      const s = await newSession(options?.chat === false ? { ...deps, openChat: () => undefined } : startingDeps, agentId);
      if (!s) throw new Error(`could not start agent '${agentId}'`);
      return s.sessionId;
    },
    presets: () => currentPresets(),
    startPreset: async (name) => {
      const preset = currentPresets().find((p) => p.name === name);
      const s = preset && await startFromPreset(startingDeps, preset);
      if (!s) throw new Error(`could not start the preset '${name}'`);
      return s.sessionId;
    },
    prompt: (id, text) => requireSession(sessions.get(id), id).prompt([{ type: 'text', text }]),
    cancel: (id) => requireSession(sessions.get(id), id).cancel(),
    respondPermission: (id, kind) => {
      const s = requireSession(sessions.get(id), id);
      const entry = [...s.thread.entries].reverse().find((e) => e.kind === 'toolCall' && e.permission);
      const p = entry?.kind === 'toolCall' ? entry.permission : undefined;
      const option = p?.options.find((o) => o.kind === kind);
      return p && option ? s.permissions.respond(p.requestId, option.optionId) : false;
    },
    snapshot: (id) => {
      const s = sessions.get(id);
      return s && threadSnapshot(s.thread, headerFacts(s), 0);
    },
    sessionIds: () => sessions.sessions.map((s) => s.sessionId),
    clientCapabilities: () => clientCapabilities,
    stopAll: () => sessions.stopAll(),
    restartAgent: async (id) => {
      const s = requireSession(sessions.get(id), id);
      await sessions.restartAgent(s.host.definition, s.cwd);
    },
    setAuthPrompter: (prompter) => sessions.setAuthPrompter(prompter),
    storedAgentEnv: async (agentId) => (await sessions.secrets?.envFor(agentId)) ?? {},
    workspaceTrustNotice: () => lifecycle.trustNotice.text,
    registry: registryFeature.api,
    logDir: () => context.logUri.fsPath,
    globalStorageDir: () => context.globalStorageUri.fsPath,
    ...worktreeFeature.api,
  };
  log.info(`the core loaded ${how}; its services were built in ${Math.round(performance.now() - started)} ms`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return api;
  const testApi: SwitchboardTestApi = {
    ...api, session: (id) => sessions.get(id), accounts: sessions.accounts,
    storedProviders: async (agentId) => (await sessions.secrets?.providersFor(agentId)) ?? {},
  };
  return testApi;
}

/**
 * Deactivates (reload, window closed): every agent and terminal process tree ends within the 3 s budget
 * of docs/process-lifetime.md: stdin closed, SIGTERM to the group, then SIGKILL. Started
 * here, synchronously: VS Code disposes context.subscriptions right after calling this, and their slower
 * stops join the fast one.
 */
export function deactivate(): Promise<void> | undefined {
  const stop = shutdown;
  shutdown = undefined;
  return stop?.();
}

function requireSession(s: AgentSession | undefined, id: string): AgentSession {
  if (!s) throw new Error(`no open session '${id}'`);
  return s;
}
