/**
 * VS Code glue of the ACP Registry: `ACP: Install Agent from Registry…` (browse, pick, install with
 * progress) and `ACP: Manage Installed Agents…` (update, pin, unpin, uninstall). The logic lives in the
 * vscode-free modules of this folder. Bundled on its own (dist/registry.js) and loaded when one of the two
 * commands first runs: ./registryFeature.ts registers them (docs/performance.md, "Start fast, ship small").
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AgentInstaller } from '../../registry/agentInstaller';
import { IconCache } from '../../registry/iconCache';
import type { InstalledAgent, InstalledAgents } from '../../registry/installedAgents';
import { defaultRegistryUrl, type LoadedRegistry, RegistryCache } from '../../registry/registryCache';
import { cachedNotice, type RegistryItem, registryItems } from '../../registry/registryItems';
import { type RegistryAgent, RegistryError } from '../../registry/registrySchema';
import { updateState } from '../../registry/versions';
import { inert, inertText } from '../../shared/inertText';
import { commandIds } from '../../constants';

/** Questions the registry commands ask; tests replace them. */
export interface RegistryPrompter {
  /** The archive has no published checksum: show the computed SHA-256 and ask. */
  confirmUnverified(agent: RegistryAgent, sha256: string, url: string): Promise<boolean>;
}

/** The default prompter: a modal warning that shows the hash. */
export const vscodeRegistryPrompter: RegistryPrompter = {
  async confirmUnverified(agent, sha256, url) {
    const install = 'Install Anyway';
    const pick = await vscode.window.showWarningMessage(
      inert.message`The ACP Registry publishes no checksum for ${agent.name} ${agent.version}, so the download cannot be verified.`,
      { modal: true, detail: inert.plain`Downloaded from:\n${url}\n\nSHA-256:\n${sha256}\n\nCompare it with the agent's release page before installing.` },
      install,
    );
    return pick === install;
  },
};

/** Manage actions. */
export type ManageAction = 'update' | 'pin' | 'unpin' | 'uninstall';

/** What the extension API exposes of the registry (integration tests). */
export interface RegistryApi {
  /** Fetches the registry (cache, ETag, offline fallback) from `switchboard.registry.url`. */
  browse(): Promise<LoadedRegistry>;
  /** Installs an agent of the registry by id (no picker). */
  install(agentId: string): Promise<InstalledAgent | undefined>;
  /** Runs a manage action without the picker. */
  manage(agentId: string, action: ManageAction): Promise<void>;
  /** The installed agents. */
  installed(): readonly InstalledAgent[];
  /** Replaces the prompter; undefined restores the modal. */
  setPrompter(prompter: RegistryPrompter | undefined): void;
  /** Global storage folder holding `agents/`, `registry/` and `icons/`. */
  readonly storageDir: string;
}

/** The registry's commands; the installed agents are the core's (./registryFeature.ts). */
export class RegistryCommands {
  private readonly installer: AgentInstaller;
  private readonly cache: RegistryCache;
  private readonly icons: IconCache;
  /** The modal that asks before an unverified install. */
  readonly defaultPrompter = vscodeRegistryPrompter;
  /** Replaced by tests (the extension API); the modal otherwise. */
  prompter: RegistryPrompter = vscodeRegistryPrompter;

  constructor(storageDir: string, private readonly installed: InstalledAgents, private readonly log: vscode.LogOutputChannel) {
    this.installer = new AgentInstaller(this.installed);
    this.cache = new RegistryCache(path.join(storageDir, 'registry'));
    this.icons = new IconCache(path.join(storageDir, 'icons'));
  }

  private url(): string {
    return vscode.workspace.getConfiguration('switchboard').get<string>('registry.url') || defaultRegistryUrl;
  }

  /** Loads the registry, logs skipped entries, and tells the user when it is the offline copy. */
  async browse(): Promise<LoadedRegistry> {
    const loaded = await this.cache.load(this.url());
    for (const s of loaded.skipped) this.log.warn(`ACP Registry: ${s}`);
    this.log.info(`ACP Registry: ${loaded.registry.agents.length} agents (${loaded.source})`);
    if (loaded.source === 'cache') {
      const notice = cachedNotice(loaded.fetchedAt, loaded.offlineReason);
      this.log.warn(notice);
      void vscode.window.showWarningMessage(inertText(notice, 'message'));
    }
    return loaded;
  }

  /**
   * Loads the registry with progress. Unreachable (and no cached copy yet), the user reads it plainly,
   * with Retry, and learns that installed agents still work; the raw error is in the log.
   */
  private async loadWithProgress(): Promise<LoadedRegistry | undefined> {
    for (;;) {
      try {
        return await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Loading the ACP Registry…' }, () => this.browse());
      } catch (ex) {
        const message = ex instanceof Error ? ex.message : String(ex);
        this.log.error(`ACP Registry: ${message}`);
        const installed = this.installed.list().map((a) => a.name);
        // the cache wraps every failure to reach the server (DNS, refused, timed out) as a 'network' RegistryError
        const text = RegistryError.is(ex, 'network')
          ? registryUnreachable(installed)
          : inert.message`The ACP Registry could not be read: ${message}.`;
        const choice = await vscode.window.showErrorMessage(text, 'Retry', 'Open Settings', 'Show Log');
        if (choice === 'Retry') continue;
        if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'switchboard.registry.url');
        if (choice === 'Show Log') this.log.show(true);
        return undefined;
      }
    }
  }

  /** `ACP: Install Agent from Registry…`; with an id, installs that agent without the picker. */
  async installCommand(agentId?: string): Promise<InstalledAgent | undefined> {
    const loaded = await this.loadWithProgress();
    if (!loaded) return undefined;
    let agent: RegistryAgent | undefined;
    if (agentId) {
      agent = loaded.registry.agents.find((a) => a.id === agentId);
      if (!agent) throw new Error(`The ACP Registry has no agent '${agentId}'.`);
    } else {
      agent = await this.pick(loaded);
    }
    return agent ? this.installWithProgress(agent, this.installed.get(agent.id)?.pinned ?? false) : undefined;
  }

  private async pick(loaded: LoadedRegistry): Promise<RegistryAgent | undefined> {
    const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { item: RegistryItem }>();
    qp.title = 'ACP: Install Agent from Registry';
    qp.placeholder = loaded.source === 'cache' ? cachedNotice(loaded.fetchedAt, undefined) : 'Choose an agent to install';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    const url = this.url();
    const toItems = () => registryItems(loaded.registry.agents, this.installed.list()).map((item) => {
      const icon = this.icons.cached(item.agent, url);
      return { label: inertText(item.label, 'label'), description: inertText(item.description, 'label'), detail: inertText(item.detail, 'label', 300), item, iconPath: icon ? { light: vscode.Uri.file(icon.light), dark: vscode.Uri.file(icon.dark) } : new vscode.ThemeIcon('hubot') };
    });
    qp.items = toItems();
    const abort = new AbortController();
    // icons not yet cached are fetched in the background; the list is refreshed when they arrive
    void Promise.all(loaded.registry.agents.filter((a) => a.icon && !this.icons.cached(a, url)).map((a) => this.icons.get(a, url, abort.signal)))
      .then((got) => { if (got.some(Boolean) && !abort.signal.aborted) qp.items = toItems(); });
    try {
      return await new Promise<RegistryAgent | undefined>((resolve) => {
        qp.onDidAccept(() => { resolve(qp.selectedItems[0]?.item.agent); qp.hide(); });
        qp.onDidHide(() => resolve(undefined));
        qp.show();
      });
    } finally {
      abort.abort();
      qp.dispose();
    }
  }

  private async installWithProgress(agent: RegistryAgent, pinned: boolean): Promise<InstalledAgent | undefined> {
    try {
      const record = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: inert.message`Installing ${agent.name}`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          const sub = token.onCancellationRequested(() => abort.abort());
          let done = 0;
          try {
            return await this.installer.install(agent, {
              pinned,
              signal: abort.signal,
              confirmUnverified: (a, sha, u) => this.prompter.confirmUnverified(a, sha, u),
              onProgress: (message, fraction) => {
                const increment = fraction === undefined ? undefined : Math.max(0, fraction * 100 - done);
                if (fraction !== undefined) done = fraction * 100;
                progress.report({ message, ...(increment ? { increment } : {}) });
              },
            });
          } finally {
            sub.dispose();
          }
        },
      );
      this.log.info(`installed ${record.id} ${record.version} (${record.kind}${record.package ? ` ${record.package}` : ''})`);
      void vscode.window.showInformationMessage(inert.message`Installed ${record.name} ${record.version}.`, 'New Session').then((c) => {
        if (c) void vscode.commands.executeCommand(commandIds.newSession, record.id);
      });
      return record;
    } catch (ex) {
      const message = ex instanceof Error ? ex.message : String(ex);
      this.log.error(`installing ${agent.id} failed: ${message}`);
      void vscode.window.showErrorMessage(inert.message`Could not install ${agent.name}: ${message}`, 'Show Log').then((c) => { if (c) this.log.show(true); });
      throw ex;
    }
  }

  /** `ACP: Manage Installed Agents…`. */
  async manageCommand(): Promise<void> {
    const list = this.installed.list();
    if (!list.length) {
      const c = await vscode.window.showInformationMessage('No agents are installed from the ACP Registry yet.', 'Install Agent…');
      if (c) await vscode.commands.executeCommand(commandIds.installFromRegistry);
      return;
    }
    const agentPick = await vscode.window.showQuickPick(list.map((a) => ({
      label: inertText(a.name, 'label'), description: inert.label`v${a.version}${a.pinned ? '  📌 pinned' : ''}`, detail: a.kind === 'binary' ? inert.label`binary ${a.target ?? ''}` : inert.label`${a.kind} ${a.package ?? ''}`, agent: a,
    })), { title: 'ACP: Manage Installed Agents', placeHolder: 'Choose an installed agent' });
    if (!agentPick) return;
    const a = agentPick.agent;
    const actions: { label: string; action: ManageAction; description?: string }[] = [
      ...(a.pinned ? [] : [{ label: '$(cloud-download) Update', action: 'update' as const, description: 'to the registry’s version' }]),
      a.pinned ? { label: '$(pinned) Unpin', action: 'unpin' as const, description: 'offer updates again' } : { label: '$(pin) Pin', action: 'pin' as const, description: inert.label`stay on ${a.version}` },
      { label: '$(trash) Uninstall', action: 'uninstall' as const, description: 'remove its files' },
    ];
    const choice = await vscode.window.showQuickPick(actions, { title: inert.label`${a.name} ${a.version}` });
    if (!choice) return;
    if (choice.action === 'uninstall') {
      const ok = await vscode.window.showWarningMessage(inert.message`Uninstall ${a.name} ${a.version}?`, { modal: true }, 'Uninstall');
      if (ok !== 'Uninstall') return;
    }
    await this.runAction(a.id, choice.action);
  }

  /** Runs a manage action without the picker. */
  async runAction(id: string, action: ManageAction): Promise<void> {
    const a = this.installed.get(id);
    if (!a) throw new Error(`'${id}' is not installed from the ACP Registry.`);
    switch (action) {
      case 'pin':
      case 'unpin':
        await this.installer.setPinned(id, action === 'pin');
        void vscode.window.showInformationMessage(action === 'pin' ? inert.message`${a.name} is pinned to ${a.version}: no updates will be offered.` : inert.message`${a.name} is unpinned.`);
        return;
      case 'uninstall':
        await this.installer.uninstall(id);
        this.log.info(`uninstalled ${id}`);
        void vscode.window.showInformationMessage(inert.message`Uninstalled ${a.name}.`);
        return;
      case 'update': {
        const loaded = await this.loadWithProgress();
        const agent = loaded?.registry.agents.find((r) => r.id === id);
        if (!agent) throw new Error(`The ACP Registry no longer lists '${id}'.`);
        const state = updateState(a, agent.version);
        if (state === 'pinned') throw new Error(`${a.name} is pinned to ${a.version}: unpin it to update.`);
        if (state !== 'updateAvailable') return void vscode.window.showInformationMessage(inert.message`${a.name} ${a.version} is up to date.`);
        await this.installWithProgress(agent, false);
        return;
      }
    }
  }
}

/** The plain message of an unreachable registry, naming the agents that work without it. */
export function registryUnreachable(installed: readonly string[]): string {
  const still = installed.length
    ? inert.message`Your installed agents still work: ${installed.join(', ')}.`
    : 'The agents in switchboard.agents and the Demo agent still work.';
  return `The ACP Registry cannot be reached (no network, or the setting switchboard.registry.url is wrong), and there is no saved copy of it yet. ${still}`;
}
