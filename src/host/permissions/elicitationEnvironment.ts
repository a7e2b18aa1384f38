/**
 * The VS Code side of the elicitation broker: the quick input flow that asks when no chat of the session is
 * visible (one field after another, with Back, then Accept or Decline; Escape cancels), and the browser
 * (`vscode.env.openExternal`). Agent text (message, titles, descriptions, choices, the URL) goes through
 * inertText, as everywhere in the workbench (docs/security.md "Agent text in the workbench").
 */
import * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { ElicitationFieldView, ElicitationFormView, ElicitationInput } from '../../shared/elicitationModel';
import { inert, inertText } from '../../shared/inertText';
import { defaultValues, fieldError, validateForm } from '../../thread/view/elicitationForm';
import type { ElicitationAnswer, ElicitationEnvironment, ElicitationPrompt } from './elicitationBroker';

type Step<T> = { readonly kind: 'value'; readonly value: T } | { readonly kind: 'back' } | { readonly kind: 'cancel' };
interface Item extends vscode.QuickPickItem { readonly value: string }

/** Shows one quick input until it is accepted, goes back, is hidden (Escape) or the request ends elsewhere. */
function run<T>(input: vscode.QuickInput, token: CancellationToken, wire: (done: (r: Step<T>) => void) => void): Promise<Step<T>> {
  return new Promise((resolve) => {
    let settled = false;
    const subs: { dispose(): void }[] = [];
    const done = (r: Step<T>): void => {
      if (settled) return;
      settled = true;
      subs.forEach((d) => d.dispose());
      input.dispose();
      resolve(r);
    };
    subs.push(input.onDidHide(() => done({ kind: 'cancel' })), token.onCancellationRequested(() => done({ kind: 'cancel' })));
    wire(done);
    input.show();
  });
}

function label(f: ElicitationFieldView): string {
  return inert.label`${f.title}${f.required ? ' (required)' : ''}${f.description ? ` — ${f.description}` : ''}`;
}

function textStep(f: ElicitationFieldView, value: ElicitationInput | undefined, common: Common, token: CancellationToken): Promise<Step<ElicitationInput>> {
  const box = vscode.window.createInputBox();
  Object.assign(box, common.props);
  box.prompt = label(f);
  box.value = value === undefined ? '' : String(value);
  box.validationMessage = common.error;
  return run(box, token, (done) => {
    box.onDidChangeValue((v) => { box.validationMessage = fieldError(f, v); });
    box.onDidTriggerButton(() => done({ kind: 'back' }));
    box.onDidAccept(() => {
      box.validationMessage = fieldError(f, box.value);
      if (!box.validationMessage) done({ kind: 'value', value: box.value });
    });
  });
}

function pickStep(f: ElicitationFieldView, value: ElicitationInput | undefined, common: Common, token: CancellationToken): Promise<Step<ElicitationInput>> {
  const qp = vscode.window.createQuickPick<Item>();
  Object.assign(qp, common.props);
  const many = f.kind === 'multiSelect';
  const choices = f.kind === 'boolean' ? [{ value: 'true', title: 'Yes' }, { value: 'false', title: 'No' }] : f.kind === 'select' || f.kind === 'multiSelect' ? f.options : [];
  const items: Item[] = choices.map((c) => ({ label: inertText(c.title, 'label'), value: c.value }));
  if (!many && !f.required) items.push({ label: '(none)', value: '' });
  qp.items = items;
  qp.canSelectMany = many;
  qp.placeholder = common.error ? inert.label`${common.error} ${f.title}` : label(f);
  const current = Array.isArray(value) ? value : value === undefined ? [] : [String(value)];
  const chosen = items.filter((i) => current.includes(i.value));
  if (many) qp.selectedItems = chosen;
  else if (chosen.length) qp.activeItems = chosen;
  return run(qp, token, (done) => {
    qp.onDidTriggerButton(() => done({ kind: 'back' }));
    qp.onDidAccept(() => {
      const picked = many ? qp.selectedItems.map((i) => i.value) : qp.selectedItems[0]?.value ?? qp.activeItems[0]?.value ?? '';
      const typed: ElicitationInput = f.kind === 'boolean' ? picked === 'true' : picked;
      const error = f.kind === 'boolean' && picked === '' ? undefined : fieldError(f, typed);
      if (error) qp.placeholder = inert.label`${error} ${f.title}`;
      else done({ kind: 'value', value: f.kind === 'boolean' && picked === '' ? '' : typed });
    });
  });
}

interface Common {
  readonly props: Partial<vscode.QuickInput> & { buttons?: readonly vscode.QuickInputButton[] };
  readonly error?: string;
}

/** The last step: Accept (with what was entered) or Decline. */
function finalStep(prompt: ElicitationPrompt, form: ElicitationFormView, values: Record<string, ElicitationInput>, common: Common, token: CancellationToken): Promise<Step<'accept' | 'decline'>> {
  const qp = vscode.window.createQuickPick<Item>();
  Object.assign(qp, common.props);
  const summary = form.fields.filter((f) => values[f.name] !== undefined && values[f.name] !== '').map((f) => `${f.title}: ${String(values[f.name])}`).join(', ');
  qp.items = [{ label: 'Accept', detail: inertText(summary, 'label'), value: 'accept' }, { label: 'Decline', value: 'decline' }];
  qp.placeholder = inert.label`${prompt.agentName}: ${prompt.message}`;
  return run(qp, token, (done) => {
    qp.onDidTriggerButton(() => done({ kind: 'back' }));
    qp.onDidAccept(() => done({ kind: 'value', value: qp.selectedItems[0]?.value === 'decline' ? 'decline' : 'accept' }));
  });
}

async function askForm(prompt: ElicitationPrompt, form: ElicitationFormView, token: CancellationToken): Promise<ElicitationAnswer | undefined> {
  const fields = form.fields.filter((f) => f.kind !== 'unsupported' || f.required);
  const values: Record<string, ElicitationInput> = defaultValues(form);
  const errors: Record<string, string> = {};
  const title = inert.label`${prompt.agentName}: ${form.title ?? prompt.message}`;
  for (let i = 0; ;) {
    if (token.isCancellationRequested) return undefined;
    const props = { title, step: i + 1, totalSteps: fields.length + 1, ignoreFocusOut: true, buttons: i > 0 ? [vscode.QuickInputButtons.Back] : [] };
    if (i < fields.length) {
      const f = fields[i];
      const common = { props, error: errors[f.name] };
      const step = f.kind === 'text' || f.kind === 'number' || f.kind === 'unsupported' ? await textStep(f, values[f.name], common, token) : await pickStep(f, values[f.name], common, token);
      if (step.kind === 'cancel') return token.isCancellationRequested ? undefined : { action: 'cancel' };
      if (step.kind === 'back') { i--; continue; }
      values[f.name] = step.value;
      delete errors[f.name];
      i++;
      continue;
    }
    const step = await finalStep(prompt, form, values, { props }, token);
    if (step.kind === 'cancel') return token.isCancellationRequested ? undefined : { action: 'cancel' };
    if (step.kind === 'back') { i--; continue; }
    if (step.value === 'decline') return { action: 'decline' };
    const content = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
    const checked = validateForm(form, content);
    if (checked.ok) return { action: 'accept', content: checked.content };
    Object.assign(errors, checked.errors);
    i = Math.max(0, fields.findIndex((f) => checked.errors[f.name] !== undefined));
  }
}

async function confirmUrl(prompt: ElicitationPrompt, token: CancellationToken): Promise<ElicitationAnswer | undefined> {
  const url = prompt.url;
  if (!url) return undefined;
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = inert.label`${prompt.agentName}: ${prompt.message}`;
  qp.ignoreFocusOut = true;
  qp.placeholder = url.warning ? inertText(url.warning, 'label') : inert.label`Open ${url.origin} in the browser?`;
  qp.items = [
    { label: inert.label`Open ${url.origin}`, detail: inertText(url.href, 'label', 400), value: 'accept' },
    { label: 'Decline', value: 'decline' },
  ];
  const step = await run<string>(qp, token, (done) => qp.onDidAccept(() => done({ kind: 'value', value: qp.selectedItems[0]?.value ?? 'decline' })));
  if (step.kind !== 'value') return token.isCancellationRequested ? undefined : { action: 'cancel' };
  return step.value === 'accept' ? { action: 'accept' } : { action: 'decline' };
}

/** The broker's environment in VS Code. */
export const vscodeElicitationEnvironment: ElicitationEnvironment = {
  ask: (prompt, token) => (prompt.form ? askForm(prompt, prompt.form, token) : confirmUrl(prompt, token)),
  openExternal: (href) => vscode.env.openExternal(vscode.Uri.parse(href, true)),
};
