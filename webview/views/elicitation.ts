/**
 * An agent's elicitation (https://agentclientprotocol.com/protocol/v1/elicitation) in the chat: in its tool call's
 * card, or as its own entry. Form mode shows one field per property (text, number, yes/no, single and multiple
 * choice; defaults filled in, required ones marked), Accept / Decline / Cancel, and the host's validation errors
 * at their fields. URL mode shows the message, the URL's origin spelled out and the full URL, and opens it only
 * on Open in Browser; then it waits for the agent's completion with Retry and Cancel. All agent text is set as
 * text (visibleText). Like a permission request, it never takes the keyboard from a user who is typing, its
 * buttons act only after it was on screen for a moment (permissionGuard.ts), and Ctrl+Shift+A reaches it
 * (permissionFocus.ts). What the user typed is kept while the card is rendered again.
 */
import type { ElicitationFieldView, ElicitationInput, ElicitationView } from '../../src/shared/elicitationModel';
import type { ElicitationEntryView } from '../../src/shared/viewModel';
import { button } from '../components/button';
import { checkbox } from '../components/checkbox';
import { dropdown } from '../components/dropdown';
import { h } from './dom';
import { guardActivation } from './permissionGuard';
import type { RenderContext } from './renderContext';
import { visibleText } from './visibleText';

/** What the user entered per pending request, kept across re-renders of its card (not across reloads). */
const drafts = new Map<string, Record<string, ElicitationInput>>();

/** The value of the "(none)" choice of an optional select (a control character no agent's enum value has). */
const noChoice = '\u0000none';
const formatHints: Record<string, string> = { email: 'name@example.com', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDTHH:MM:SSZ' };

function fieldLabel(f: ElicitationFieldView, id: string): HTMLElement {
  return h('label', { class: 'elicitation-label', for: id },
    visibleText(f.title), f.required ? h('span', { class: 'elicitation-required', 'aria-hidden': 'true', title: 'Required' }, ' *') : undefined);
}

/** The input of one field; `set` records what the user entered. */
function fieldInput(f: ElicitationFieldView, id: string, value: ElicitationInput | undefined, set: (v: ElicitationInput) => void, describedBy: string): HTMLElement {
  const common = { id, 'data-testid': 'elicitation-input', 'data-field': f.name, 'data-focus-target': 'true', 'data-option-id': `field:${f.name}`, 'aria-describedby': describedBy };
  switch (f.kind) {
    case 'boolean': {
      const el = checkbox({ label: f.title, checked: value === true, testId: 'elicitation-input', onChange: (checked) => set(checked) });
      for (const [k, v] of Object.entries(common)) if (k !== 'data-testid') el.setAttribute(k, v);
      return el;
    }
    case 'select': {
      // the toolkit's dropdown selects an option whose value is '' over the one marked selected: "none" gets its own value
      // a required one without a value shows "(choose one)", not its first choice: what is shown is what is sent
      const current = typeof value === 'string' && value !== '' ? value : noChoice;
      const none = f.required ? (current === noChoice ? [{ value: noChoice, label: '(choose one)' }] : []) : [{ value: noChoice, label: '(none)' }];
      const options = [...none, ...f.options.map((o) => ({ value: o.value, label: o.title }))];
      const el = dropdown({ label: f.title, value: current, options, testId: 'elicitation-input', onChange: (v) => set(v === noChoice ? '' : v) });
      for (const [k, v] of Object.entries(common)) if (k !== 'data-testid') el.setAttribute(k, v);
      return el;
    }
    case 'multiSelect': {
      const chosen = new Set(Array.isArray(value) ? value : []);
      return h('div', { ...common, class: 'elicitation-choices', role: 'group', 'aria-label': f.title, 'data-focus-target': undefined },
        ...f.options.map((o, i) => {
          const box = checkbox({
            label: o.title, checked: chosen.has(o.value), testId: 'elicitation-choice',
            onChange: (checked) => {
              if (checked) chosen.add(o.value); else chosen.delete(o.value);
              set(f.options.map((x) => x.value).filter((v) => chosen.has(v)));
            },
          });
          box.setAttribute('data-value', o.value);
          box.setAttribute('data-option-id', `choice:${f.name}:${i}`);
          box.setAttribute('data-focus-target', 'true');
          return box;
        }));
    }
    default: {
      const input = h('input', {
        ...common, class: 'elicitation-text', type: 'text', spellcheck: 'false',
        placeholder: f.kind === 'text' && f.format ? formatHints[f.format] : undefined,
        inputmode: f.kind === 'number' ? (f.integer ? 'numeric' : 'decimal') : undefined,
        disabled: f.kind === 'unsupported' ? '' : undefined,
      });
      input.value = value === undefined ? '' : String(value);
      input.addEventListener('input', () => set(input.value));
      return input;
    }
  }
}

function formNode(v: ElicitationView, ctx: RenderContext, id: string): HTMLElement[] {
  const form = v.form;
  if (!form) return [];
  let draft = drafts.get(v.requestId);
  if (!draft) {
    draft = { ...(v.values ?? {}) };
    // an unchecked box of a required yes/no question means no
    for (const f of form.fields) if (f.kind === 'boolean' && f.required && draft[f.name] === undefined) draft[f.name] = false;
    drafts.set(v.requestId, draft);
  }
  const values = draft;
  const fields = form.fields.map((f) => {
    const fieldId = `${id}-f-${f.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const error = v.errors?.[f.name];
    const hint = f.kind === 'unsupported' ? `Switchboard cannot fill a field of type "${f.type}".` : f.description;
    return h('div', { class: 'elicitation-field', 'data-testid': 'elicitation-field', 'data-field': f.name, 'data-kind': f.kind, 'data-invalid': error ? 'true' : undefined },
      f.kind === 'boolean' ? undefined : fieldLabel(f, fieldId),
      fieldInput(f, fieldId, values[f.name], (x) => { values[f.name] = x; }, `${fieldId}-hint ${fieldId}-error`),
      hint ? h('div', { class: 'elicitation-hint', id: `${fieldId}-hint` }, visibleText(hint)) : undefined,
      error ? h('div', { class: 'elicitation-error', id: `${fieldId}-error`, role: 'alert', 'data-testid': 'elicitation-error', 'data-field': f.name }, error) : undefined);
  });
  return [
    ...(form.title ? [h('div', { class: 'elicitation-form-title' }, visibleText(form.title))] : []),
    ...(form.description ? [h('div', { class: 'elicitation-hint' }, visibleText(form.description))] : []),
    h('div', { class: 'elicitation-fields' }, ...fields),
    actions(v, [
      { label: 'Accept', icon: 'check', primary: true, act: () => ctx.actions.respondElicitation(v.requestId, 'accept', { ...values }) },
      { label: 'Decline', icon: 'close', act: () => ctx.actions.respondElicitation(v.requestId, 'decline') },
      { label: 'Cancel', icon: 'circle-slash', act: () => ctx.actions.respondElicitation(v.requestId, 'cancel') },
    ]),
  ];
}

function urlNode(v: ElicitationView, ctx: RenderContext): HTMLElement[] {
  const url = v.url;
  if (!url) return [];
  const where = h('dl', { class: 'permission-subject' },
    h('dt', { class: 'permission-subject-label' }, 'Site'),
    h('dd', { class: 'permission-subject-item' }, h('code', { class: 'permission-subject-text elicitation-origin', 'data-testid': 'elicitation-origin', dir: 'ltr' }, visibleText(url.origin))),
    h('dt', { class: 'permission-subject-label' }, 'Address'),
    h('dd', { class: 'permission-subject-item' }, h('code', { class: 'permission-subject-text', 'data-testid': 'elicitation-url', dir: 'ltr' }, visibleText(url.href))));
  const warning = url.warning ? h('div', { class: 'elicitation-warning', role: 'note', 'data-testid': 'elicitation-warning' }, h('span', { class: 'codicon codicon-warning', 'aria-hidden': 'true' }), ` ${url.warning}`) : undefined;
  if (v.state === 'waiting') {
    return [where, h('div', { class: 'elicitation-hint', 'data-testid': 'elicitation-waiting' }, 'Waiting for you to finish in the browser…'), actions(v, [
      { label: 'Retry', icon: 'refresh', act: () => ctx.actions.elicitationUrl(v.requestId, 'retry') },
      { label: 'Cancel', icon: 'circle-slash', act: () => ctx.actions.elicitationUrl(v.requestId, 'dismiss') },
    ])];
  }
  return [where, ...(warning ? [warning] : []), actions(v, [
    { label: 'Open in Browser', icon: 'link-external', primary: true, act: () => ctx.actions.respondElicitation(v.requestId, 'accept') },
    { label: 'Decline', icon: 'close', act: () => ctx.actions.respondElicitation(v.requestId, 'decline') },
    { label: 'Cancel', icon: 'circle-slash', act: () => ctx.actions.respondElicitation(v.requestId, 'cancel') },
  ])];
}

interface Action { readonly label: string; readonly icon: string; readonly primary?: boolean; readonly act: () => void }

function actions(v: ElicitationView, list: readonly Action[]): HTMLElement {
  return h('div', { class: 'permission-options', role: 'group', 'aria-label': 'Answer' }, ...list.map((a) => button({
    label: a.label, icon: a.icon, appearance: a.primary ? 'primary' : 'secondary', testId: 'elicitation-action',
    attrs: { 'data-action': a.label.toLowerCase().replace(/\s+/g, '-'), 'data-option-id': `action:${a.label}`, 'data-focus-target': 'true', 'data-request-id': v.requestId },
    onClick: a.act,
  })));
}

/** One elicitation: the pending dialog, or the line saying how it was answered. */
export function elicitationNode(v: ElicitationView, ctx: RenderContext): HTMLElement {
  const id = `elicit-${v.requestId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (v.state === 'done') {
    drafts.delete(v.requestId);
    return h('div', { class: 'permission-outcome elicitation-outcome', 'data-testid': 'elicitation-outcome', 'data-request-id': v.requestId },
      h('span', { class: 'codicon codicon-question', 'aria-hidden': 'true' }), ' ', visibleText(v.message), ` — ${v.outcome ?? 'Done'}`);
  }
  const dialog = h('div', {
    class: 'permission elicitation', role: 'alertdialog', 'aria-modal': 'false', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-desc`,
    'data-testid': 'elicitation', 'data-request-id': v.requestId, 'data-mode': v.mode, 'data-state': v.state, 'data-pending': 'true',
  },
  h('div', { class: 'permission-title', id: `${id}-title` }, h('span', { class: 'codicon codicon-question', 'aria-hidden': 'true' }), v.mode === 'url' ? ' The agent asks you to open a page' : ' The agent asks for input'),
  h('div', { class: 'permission-desc elicitation-message', id: `${id}-desc`, 'data-testid': 'elicitation-message' }, visibleText(v.message)),
  ...(v.mode === 'form' ? formNode(v, ctx, id) : urlNode(v, ctx)));
  guardActivation(dialog, v.requestId);
  return dialog;
}

/** An elicitation that is its own transcript entry (not scoped to a tool call). */
export function elicitationEntryNode(e: ElicitationEntryView, ctx: RenderContext): HTMLElement {
  return h('div', { class: 'entry elicitation-entry', 'data-testid': 'elicitation-entry' }, elicitationNode(e.elicitation, ctx));
}
