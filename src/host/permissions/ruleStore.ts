/**
 * Where the rules live in VS Code (docs/approvals.md, "Rules"): the setting `switchboard.permissions.rules` in user
 * and workspace settings, the match count of each rule (global state), and the shell parser, loaded on first use
 * as a bundle of its own (esbuild.mjs, lazyModules) with its grammar from dist/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { compileRules } from './rules/requestRules';
import type { CompiledRules } from './rules/requestRules';
import { RuleSet, ruleKey } from './rules/ruleSet';
import type { Rule, RuleScope } from './rules/ruleSet';
import { isEntryOf, readRules, toEntry } from './rules/ruleSettings';
import type { ShellParser } from './rules/shellParser';
import { noteOwnWrite } from './turnAudit';

const settingKey = 'permissions.rules';
const countsKey = 'switchboard.ruleMatches';

/** The rules in settings, each scope's unreadable entries, and how often each rule matched. */
export class RuleStore implements vscode.Disposable {
  private _parser: Promise<ShellParser | undefined> | undefined;
  private _compiled: { key: string; rules: Promise<CompiledRules> } | undefined;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** The rules or their counts changed. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _listener: vscode.Disposable;
  private _warned = '';
  private _settings: { readonly rules: readonly Rule[]; readonly errors: readonly string[] } | undefined;

  constructor(private readonly state: vscode.Memento, private readonly distDir: string, private readonly log: vscode.LogOutputChannel) {
    this._listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(`switchboard.${settingKey}`)) return;
      this._settings = undefined;
      this._onDidChange.fire();
    });
  }

  /**
   * The rules in settings: the user's and the workspace's (a workspace folder's are the workspace's too). Read once
   * per change of the setting: every permission request, write and command asks for them.
   */
  settingsRules(): { readonly rules: readonly Rule[]; readonly errors: readonly string[] } {
    this._settings ??= this.readSettings();
    return this._settings;
  }

  private readSettings(): { readonly rules: readonly Rule[]; readonly errors: readonly string[] } {
    const inspected = vscode.workspace.getConfiguration('switchboard').inspect<unknown>(settingKey);
    const user = readRules(inspected?.globalValue, 'user');
    const workspace = readRules(inspected?.workspaceValue, 'workspace');
    const folder = readRules(inspected?.workspaceFolderValue, 'workspace');
    const errors = [...user.errors.map((e) => `user settings: ${e}`), ...workspace.errors.map((e) => `workspace settings: ${e}`), ...folder.errors.map((e) => `folder settings: ${e}`)];
    return { rules: [...user.rules, ...workspace.rules, ...folder.rules], errors };
  }

  /** The rules for a session with these folders and its own rules; none when there are none at all. */
  async rules(roots: readonly string[], own: readonly Rule[]): Promise<CompiledRules | undefined> {
    const { rules, errors } = this.settingsRules();
    const warning = errors.join('; ');
    if (warning !== this._warned) {
      this._warned = warning;
      if (warning) this.log.warn(`switchboard.permissions.rules: ignored: ${warning}`);
    }
    const all = [...own, ...rules];
    if (all.length === 0) return undefined;
    const key = JSON.stringify([roots, all, vscode.workspace.isTrusted]);
    if (this._compiled?.key !== key) {
      const parser = await this.parser();
      if (!parser) throw new Error('the shell parser could not be loaded');
      this._compiled = { key, rules: Promise.resolve(compileRules(new RuleSet(all, roots, vscode.workspace.isTrusted), parser)) };
    }
    return this._compiled.rules;
  }

  /** The shell parser (tree-sitter's bash grammar), loaded once; undefined when it cannot be loaded. */
  parser(): Promise<ShellParser | undefined> {
    this._parser ??= import('./rules/shellParser').then((m) => m.bashParser(this.distDir)).catch((error: unknown) => {
      this.log.error(`the shell parser could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
      this._parser = undefined;
      return undefined;
    });
    return this._parser;
  }

  /** How often each rule matched, by {@link ruleKey}. */
  counts(): Readonly<Record<string, number>> {
    return this.state.get<Record<string, number>>(countsKey, {});
  }

  /** Rules answered something: their counts go up. */
  matched(rules: readonly Rule[]): void {
    if (rules.length === 0) return;
    const counts = { ...this.counts() };
    for (const r of rules) counts[ruleKey(r)] = (counts[ruleKey(r)] ?? 0) + 1;
    void this.state.update(countsKey, counts).then(() => this._onDidChange.fire());
  }

  /** Forgets every count ("Reset approvals"). */
  async resetCounts(): Promise<void> {
    await this.state.update(countsKey, undefined);
    this._onDidChange.fire();
  }

  /** Adds a rule to the settings of its scope (the user's or the workspace's). */
  async add(rule: Rule): Promise<void> {
    await this.write(rule.scope, (entries) => [...entries.filter((e) => !isEntryOf(e, rule)), toEntry(rule)]);
  }

  /** Removes a rule from the settings of its scope. */
  async remove(rule: Rule): Promise<void> {
    await this.write(rule.scope, (entries) => entries.filter((e) => !isEntryOf(e, rule)));
  }

  /** Replaces a rule by another, in place when they share a scope. */
  async replace(old: Rule, next: Rule): Promise<void> {
    if (old.scope !== next.scope) {
      await this.remove(old);
      await this.add(next);
      return;
    }
    await this.write(old.scope, (entries) => {
      const i = entries.findIndex((e) => isEntryOf(e, old));
      return i === -1 ? [...entries, toEntry(next)] : [...entries.slice(0, i), toEntry(next), ...entries.slice(i + 1)];
    });
  }

  private async write(scope: RuleScope, change: (entries: readonly unknown[]) => unknown[]): Promise<void> {
    if (scope === 'session') throw new Error('a session rule is not a setting');
    const config = vscode.workspace.getConfiguration('switchboard');
    const inspected = config.inspect<unknown>(settingKey);
    const current = scope === 'user' ? inspected?.globalValue : inspected?.workspaceValue;
    const entries = Array.isArray(current) ? (current as unknown[]) : [];
    const target = scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
    await config.update(settingKey, change(entries), target);
    // the workspace's settings file, as it is now, is Switchboard's write, not the agent's (the turn audit skips it)
    const file = scope === 'workspace' ? workspaceSettingsFile() : undefined;
    if (file) await fs.promises.readFile(file).then((bytes) => noteOwnWrite(file, bytes), () => undefined);
  }

  dispose(): void {
    this._listener.dispose();
    this._onDidChange.dispose();
  }
}

/** The file workspace settings are written to: the .code-workspace file, or the folder's .vscode/settings.json (real path). */
function workspaceSettingsFile(): string | undefined {
  const file = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = file ?? (folder?.scheme === 'file' ? path.join(folder.fsPath, '.vscode', 'settings.json') : undefined);
  if (!target) return undefined;
  try {
    return path.join(fs.realpathSync.native(path.dirname(target)), path.basename(target));
  } catch {
    return target; // the folder does not exist yet: VS Code creates it
  }
}
