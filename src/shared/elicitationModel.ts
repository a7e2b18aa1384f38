/**
 * An agent's `elicitation/create` as the chat shows it (https://agentclientprotocol.com/protocol/v1/elicitation):
 * the restricted JSON schema of form mode turned into fields (src/thread/view/elicitationForm.ts builds them and
 * validates the answers), or the URL of URL mode with its origin. Types only: the host validates, the webview
 * renders (docs/acp-features.md "Elicitation").
 */

/** What every field has. `title` is the property's title, or its name. */
interface FieldBase {
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A choice of a single or multi select (`enum` value, or `oneOf` / `anyOf` const with its title). */
export interface ElicitationChoiceView {
  readonly value: string;
  readonly title: string;
}

/** The string formats of the schema. */
export type ElicitationStringFormat = 'email' | 'uri' | 'date' | 'date-time';

/** One field of a form. `unsupported` is a property type this client does not know (shown, never filled). */
export type ElicitationFieldView =
  | FieldBase & { readonly kind: 'text'; readonly format?: ElicitationStringFormat; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly default?: string }
  | FieldBase & { readonly kind: 'select'; readonly options: readonly ElicitationChoiceView[]; readonly default?: string }
  | FieldBase & { readonly kind: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number; readonly default?: number }
  | FieldBase & { readonly kind: 'boolean'; readonly default?: boolean }
  | FieldBase & { readonly kind: 'multiSelect'; readonly options: readonly ElicitationChoiceView[]; readonly minItems?: number; readonly maxItems?: number; readonly default?: readonly string[] }
  | FieldBase & { readonly kind: 'unsupported'; readonly type: string };

/** A form: the schema's title and description, and its fields in the agent's order. */
export interface ElicitationFormView {
  readonly title?: string;
  readonly description?: string;
  readonly fields: readonly ElicitationFieldView[];
}

/** A value the user entered, as the webview sends it (numbers may come as the typed text). */
export type ElicitationInput = string | number | boolean | readonly string[];

/**
 * A pending or answered elicitation. `state`: `pending` (waiting for the user), `waiting` (URL mode: the
 * user opened the URL, the client waits for `elicitation/complete`), `done` (answered; `outcome` says how).
 */
export interface ElicitationView {
  /** The client's id of this request (unique across sessions). */
  readonly requestId: string;
  readonly message: string;
  readonly mode: 'form' | 'url';
  readonly form?: ElicitationFormView;
  /** URL mode: the full URL, its origin (scheme, host and port, spelled out), and a warning (punycode). */
  readonly url?: { readonly href: string; readonly origin: string; readonly warning?: string };
  readonly state: 'pending' | 'waiting' | 'done';
  /** The values last submitted (kept with their errors, so a reload shows them again). */
  readonly values?: Readonly<Record<string, ElicitationInput>>;
  /** Per field, why the last submitted value was refused. */
  readonly errors?: Readonly<Record<string, string>>;
  /** Once done: "Accepted", "Declined", "Cancelled", "Completed", … */
  readonly outcome?: string;
}
