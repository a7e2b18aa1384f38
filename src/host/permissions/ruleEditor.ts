/**
 * The rule editor of a permission card (docs/approvals.md, "Rules"), in the workbench's own quick input, by
 * keyboard: pick the rules to make from what the request carries, pick allow or deny and where (this session, this
 * workspace, or everywhere: user settings), then edit each rule. While a rule is edited, the box says exactly what it
 * matches, and whether the request would then be answered by it. The request's text is agent text: shown inert.
 */
import * as vscode from 'vscode';
import type { RequestRuling } from './rules/requestRules';
import { describeRule } from './rules/ruleSet';
import type { Rule, RuleAction, RuleKind, RuleScope } from './rules/ruleSet';
import { describeMatch } from './rules/ruleSuggestions';
import type { RuleDraft } from './rules/ruleSuggestions';
import type { RuleStore } from './ruleStore';
import { inert, inertText } from '../../shared/inertText';

/** The codicon of each kind of rule. */
export const kindIcons: Readonly<Record<RuleKind, string>> = { command: 'terminal', read: 'eye', write: 'edit', mcpTool: 'tools', host: 'globe' };
/** The name of each kind of rule, as the editor shows it. */
export const kindLabels: Readonly<Record<RuleKind, string>> = { command: 'Command', read: 'Read', write: 'Write', mcpTool: 'MCP tool', host: 'Host' };

/** A quick pick label: our icon, then agent (or user) text with its `$(icon)` syntax escaped. */
export function iconLabel(icon: string, text: string): string {
  return `$(${icon}) ${inertText(text, 'label')}`;
}

interface DraftItem extends vscode.QuickPickItem {
  readonly draft: RuleDraft;
}

interface WhereItem extends vscode.QuickPickItem {
  readonly action: RuleAction;
  readonly scope: RuleScope;
}

/** Runs the editor; returns the rules made (those of the user and the workspace are saved in settings). */
export async function editRules(store: RuleStore, drafts: readonly RuleDraft[], check: (rules: readonly Rule[]) => Promise<RequestRuling>): Promise<readonly Rule[]> {
  const parser = await store.parser();
  if (!parser || drafts.length === 0) return [];
  const steps = new Steps();
  try {
    const picked = drafts.length === 1 ? drafts : await pickDrafts(steps, drafts, parser);
    if (!picked || picked.length === 0) return [];
    const where = await pickWhere(steps, picked);
    if (!where) return [];
    const made: Rule[] = [];
    for (const [i, draft] of picked.entries()) {
      const rest = picked.slice(i + 1).map((d) => ({ ...d, action: where.action, scope: where.scope }));
      const pattern = await editPattern(steps, draft, where, i, picked.length, parser, (p) => check([...made, { ...draft, pattern: p, action: where.action, scope: where.scope }, ...rest]));
      if (pattern === undefined) return []; // closed: nothing is saved
      made.push({ kind: draft.kind, pattern, action: where.action, scope: where.scope });
    }
    steps.dispose();
    for (const rule of made) if (rule.scope !== 'session') await store.add(rule);
    return made;
  } finally {
    steps.dispose();
  }
}

/**
 * The editor's steps, one quick input at a time: the next is shown before the last one goes, so the keyboard never
 * falls back to the chat between two steps (the chat's page gives it to its composer, and an Enter typed at once
 * went there instead of to the next step).
 */
class Steps implements vscode.Disposable {
  private current: vscode.QuickInput | undefined;

  show(input: vscode.QuickInput): void {
    const last = this.current;
    this.current = input;
    input.show();
    last?.dispose();
  }

  dispose(): void {
    this.current?.dispose();
    this.current = undefined;
  }
}

/** A quick pick as a step: the items accepted (the one under the cursor when one is picked), or undefined when closed. */
function pickStep<T extends vscode.QuickPickItem>(steps: Steps, items: readonly T[], options: { title: string; placeholder: string; many: boolean; matchOnDetail?: boolean }): Promise<readonly T[] | undefined> {
  const pick = vscode.window.createQuickPick<T>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.canSelectMany = options.many;
  pick.matchOnDetail = options.matchOnDetail ?? false;
  pick.ignoreFocusOut = true;
  pick.items = items;
  if (options.many) pick.selectedItems = items.filter((i) => i.picked);
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: readonly T[] | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
    };
    pick.onDidAccept(() => finish(options.many ? pick.selectedItems : pick.activeItems.slice(0, 1)));
    pick.onDidHide(() => finish(undefined));
    steps.show(pick);
  });
}

async function pickDrafts(steps: Steps, drafts: readonly RuleDraft[], parser: Parameters<typeof describeMatch>[1]): Promise<readonly RuleDraft[] | undefined> {
  // the exact command of each part is picked: a chain is allowed only when a rule allows each part
  const firstOf = new Set<RuleKind>();
  const items: DraftItem[] = drafts.map((draft) => {
    const picked = draft.kind === 'command' ? !draft.pattern.endsWith(' *') : !firstOf.has(draft.kind);
    firstOf.add(draft.kind);
    return {
      draft, picked,
      label: iconLabel(kindIcons[draft.kind], draft.pattern),
      description: kindLabels[draft.kind],
      detail: inertText(describeMatch(draft, parser), 'label', 300),
    };
  });
  const chosen = await pickStep(steps, items, { title: 'Make rules from this request (1/3): what', placeholder: 'Pick the rules to make; you can edit each one', many: true, matchOnDetail: true });
  return chosen?.map((c) => c.draft);
}

async function pickWhere(steps: Steps, picked: readonly RuleDraft[]): Promise<WhereItem | undefined> {
  const hasWorkspace = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  const untrusted = hasWorkspace && !vscode.workspace.isTrusted ? 'This workspace is not trusted: its allow rules do not apply until you trust it' : undefined;
  const items: WhereItem[] = [
    ...(hasWorkspace ? [{ action: 'allow' as const, scope: 'workspace' as const, label: '$(check) Always allow in this workspace', description: 'workspace settings', ...(untrusted ? { detail: untrusted } : {}) }] : []),
    { action: 'allow', scope: 'session', label: '$(check) Allow in this session', description: 'until the session ends' },
    { action: 'allow', scope: 'user', label: '$(check-all) Always allow, in every workspace', description: 'user settings' },
    ...(hasWorkspace ? [{ action: 'deny' as const, scope: 'workspace' as const, label: '$(circle-slash) Always deny in this workspace', description: 'workspace settings' }] : []),
    { action: 'deny', scope: 'session', label: '$(circle-slash) Deny in this session', description: 'until the session ends' },
    { action: 'deny', scope: 'user', label: '$(circle-slash) Always deny, in every workspace', description: 'user settings' },
  ];
  const chosen = await pickStep(steps, items, {
    title: inert.label`Make rules from this request (2/3): allow or deny, and where (${String(picked.length)} rule${picked.length === 1 ? '' : 's'})`,
    placeholder: 'A deny rule wins over an allow rule', many: false,
  });
  return chosen?.[0];
}

async function editPattern(steps: Steps, draft: RuleDraft, where: WhereItem, index: number, total: number, parser: Parameters<typeof describeMatch>[1], check: (pattern: string) => Promise<RequestRuling>): Promise<string | undefined> {
  const kind = kindLabels[draft.kind].toLowerCase();
  const box = vscode.window.createInputBox();
  box.title = `Make rules from this request (3/3): ${where.action} ${kind} rule ${total > 1 ? `${index + 1} of ${total}` : ''}`.trim();
  box.value = draft.pattern;
  box.prompt = draft.kind === 'command' ? 'A command line: `*` as a whole word is any one word, and as the last word any arguments' : 'A glob (picomatch): `*` within a name, `**` across folders';
  box.ignoreFocusOut = true;
  // what the rule matches, and what it would do to the request, for the text as it is now (the newest wins)
  let shown = 0;
  let valid = true;
  const validate = async (text: string): Promise<void> => {
    const mine = ++shown;
    const message = await judgePattern(draft, text.trim(), where, parser, check);
    if (mine !== shown) return;
    valid = message.severity !== vscode.InputBoxValidationSeverity.Error;
    box.validationMessage = message;
  };
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (value: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
    };
    box.onDidChangeValue((text) => void validate(text));
    box.onDidAccept(() => {
      if (valid && box.value.trim() !== '') finish(box.value.trim());
    });
    box.onDidHide(() => finish(undefined));
    steps.show(box);
    void validate(box.value);
  });
}

async function judgePattern(draft: RuleDraft, pattern: string, where: WhereItem, parser: Parameters<typeof describeMatch>[1], check: (pattern: string) => Promise<RequestRuling>): Promise<vscode.InputBoxValidationMessage> {
  if (pattern === '') return { message: 'A rule needs a pattern', severity: vscode.InputBoxValidationSeverity.Error };
  const matches = describeMatch({ kind: draft.kind, pattern }, parser);
  if (matches.startsWith('not a rule')) return { message: inertText(matches, 'plain', 500), severity: vscode.InputBoxValidationSeverity.Error };
  const ruling = await check(pattern).catch((): RequestRuling => ({ allowedBy: [] }));
  const answers = ruling.verdict && ruling.verdict.action !== 'ask'
    ? `This request would be ${ruling.verdict.action === 'allow' ? 'allowed' : 'denied'} by ${describeRule(ruling.verdict.rule)}.`
    : where.action === 'allow' ? 'This request would still be asked about: the rules do not cover everything it does.' : 'This rule does not match this request.';
  return { message: inertText(`Matches ${matches}. ${answers}`, 'plain', 600), severity: ruling.verdict ? vscode.InputBoxValidationSeverity.Info : vscode.InputBoxValidationSeverity.Warning };
}
