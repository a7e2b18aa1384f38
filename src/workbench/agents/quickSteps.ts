/**
 * Steps of a multi-step quick input (VS Code's pattern: "Step n/N" in the title, a Back button from the second
 * step on, Esc leaves). Each step resolves with the value, `back` or `cancel`.
 */
import * as vscode from 'vscode';

/** What a step ended with. */
export type StepResult<T> = { readonly kind: 'value'; readonly value: T } | { readonly kind: 'back' } | { readonly kind: 'cancel' };

/** The parts every step has. */
export interface StepBase {
  readonly title: string;
  readonly step: number;
  readonly totalSteps: number;
  /** Show the Back button. */
  readonly back: boolean;
  readonly placeholder?: string;
}

/** A text step. */
export interface TextStep extends StepBase {
  readonly value: string;
  readonly prompt: string;
  readonly password?: boolean;
  /** An error that blocks Enter (checked as the user types). */
  readonly validate: (value: string) => string | undefined;
  /** A warning shown on the first Enter (Enter again accepts the value). */
  readonly warn?: (value: string) => Promise<string | undefined>;
  /** A title-bar button that fills the value (e.g. a file dialog). */
  readonly browse?: { readonly tooltip: string; readonly run: () => Promise<string | undefined> };
}

/** Shows a text step. */
export function textStep(o: TextStep): Promise<StepResult<string>> {
  const input = vscode.window.createInputBox();
  input.title = o.title;
  input.step = o.step;
  input.totalSteps = o.totalSteps;
  input.prompt = o.prompt;
  input.placeholder = o.placeholder;
  input.value = o.value;
  input.password = o.password ?? false;
  input.ignoreFocusOut = true;
  const browseButton: vscode.QuickInputButton | undefined = o.browse && { iconPath: new vscode.ThemeIcon('folder-opened'), tooltip: o.browse.tooltip };
  input.buttons = [...(o.back ? [vscode.QuickInputButtons.Back] : []), ...(browseButton ? [browseButton] : [])];
  let warnedFor: string | undefined;
  let away = false; // a file dialog is open: the input box is hidden for it, not left
  return new Promise<StepResult<string>>((resolve) => {
    const done = (result: StepResult<string>) => {
      disposables.forEach((d) => d.dispose());
      input.dispose();
      resolve(result);
    };
    const check = (value: string) => {
      const error = o.validate(value);
      input.validationMessage = error;
      return error;
    };
    const disposables = [
      input.onDidChangeValue((v) => { warnedFor = undefined; check(v); }),
      input.onDidAccept(async () => {
        const value = input.value;
        if (check(value)) return;
        if (o.warn && warnedFor !== value) {
          input.busy = true;
          const warning = await o.warn(value).catch((ex: unknown) => (ex instanceof Error ? ex.message : String(ex)));
          input.busy = false;
          if (warning && input.value === value) {
            warnedFor = value;
            input.validationMessage = { message: warning, severity: vscode.InputBoxValidationSeverity.Warning };
            return;
          }
        }
        done({ kind: 'value', value });
      }),
      input.onDidTriggerButton(async (button) => {
        if (button === vscode.QuickInputButtons.Back) return done({ kind: 'back' });
        if (button !== browseButton || !o.browse) return;
        away = true;
        const picked = await o.browse.run();
        away = false;
        if (picked) input.value = picked;
        input.show();
        check(input.value);
      }),
      input.onDidHide(() => { if (!away) done({ kind: 'cancel' }); }),
    ];
    input.show();
  });
}

/** A choice step; each item carries the value it stands for. */
export interface PickStep extends StepBase {
  readonly items: readonly (vscode.QuickPickItem & { readonly value: string })[];
}

/** Shows a choice step. */
export function pickStep(o: PickStep): Promise<StepResult<string>> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { readonly value: string }>();
  pick.title = o.title;
  pick.step = o.step;
  pick.totalSteps = o.totalSteps;
  pick.placeholder = o.placeholder;
  pick.items = o.items;
  pick.ignoreFocusOut = true;
  pick.buttons = o.back ? [vscode.QuickInputButtons.Back] : [];
  return new Promise<StepResult<string>>((resolve) => {
    const done = (result: StepResult<string>) => {
      disposables.forEach((d) => d.dispose());
      pick.dispose();
      resolve(result);
    };
    const disposables = [
      pick.onDidAccept(() => { const chosen = pick.selectedItems[0]; if (chosen) done({ kind: 'value', value: chosen.value }); }),
      pick.onDidTriggerButton((b) => { if (b === vscode.QuickInputButtons.Back) done({ kind: 'back' }); }),
      pick.onDidHide(() => done({ kind: 'cancel' })),
    ];
    pick.show();
  });
}
