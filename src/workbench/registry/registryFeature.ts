/**
 * The ACP Registry as activation sees it: the installed agents (for the agent picker) and the two registry
 * commands, whose code (./registryCommands.ts, bundled as dist/registry.js) loads when one of them first runs
 * (docs/performance.md, "Start fast, ship small"). Installing an agent is rare; its code, the registry's
 * schema, the download, checksum and SVG checks, is 24 KB the extension does not load until then.
 */
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agentDefinition';
import { InstalledAgents } from '../../registry/installedAgents';
import { commandIds } from '../../constants';
import type { RegistryApi, RegistryCommands, RegistryPrompter } from './registryCommands';

/** The registry feature: the installed agents, and the commands (loaded on first use). */
export class RegistryFeature implements vscode.Disposable {
  readonly installed: InstalledAgents;
  private readonly storageDir: string;
  private readonly disposables: vscode.Disposable[] = [];
  private _commands: Promise<RegistryCommands> | undefined;
  private _prompter: RegistryPrompter | undefined;

  constructor(context: vscode.ExtensionContext, private readonly log: vscode.LogOutputChannel) {
    this.storageDir = context.globalStorageUri.fsPath;
    this.installed = new InstalledAgents(this.storageDir, (m) => log.warn(m));
    this.disposables.push(
      vscode.commands.registerCommand(commandIds.installFromRegistry, async (agentId?: unknown) => (await this.commands()).installCommand(typeof agentId === 'string' ? agentId : undefined)),
      vscode.commands.registerCommand(commandIds.manageAgents, async () => (await this.commands()).manageCommand()),
    );
  }

  /** Installed agents as launchable definitions (for the agent picker). */
  definitions(): AgentDefinition[] {
    return this.installed.list().map((a) => this.installed.toDefinition(a));
  }

  /** The API for tests and other extensions. */
  get api(): RegistryApi {
    return {
      browse: async () => (await this.commands()).browse(),
      install: async (id) => (await this.commands()).installCommand(id),
      manage: async (id, action) => (await this.commands()).runAction(id, action),
      installed: () => this.installed.list(),
      setPrompter: (p) => {
        this._prompter = p;
        void this._commands?.then((c) => this.applyPrompter(c));
      },
      storageDir: this.storageDir,
    };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }

  private commands(): Promise<RegistryCommands> {
    this._commands ??= import('./registryCommands.js').then((m) => {
      const commands = new m.RegistryCommands(this.storageDir, this.installed, this.log);
      this.applyPrompter(commands);
      return commands;
    });
    return this._commands;
  }

  private applyPrompter(commands: RegistryCommands): void {
    commands.prompter = this._prompter ?? commands.defaultPrompter;
  }
}
