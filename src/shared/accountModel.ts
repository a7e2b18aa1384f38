/**
 * The agent's account and model providers as the chat and Switch Session show them
 * (docs/acp-features.md#accounts-and-model-providers): the sign-in state of `auth/status` and
 * `auth/status_update`, and the LLM providers of `providers/list` (both UNSTABLE in ACP, each shown only
 * for an agent that advertises it). Shared by the host, which builds the view, and the webview, which
 * renders it. Every string but the state labels comes from the agent: shown as text only. Pure.
 */

/** The sign-in states this client knows; anything else the agent sends is `unknown` (the schema's rule). */
export type AuthStateView = 'authenticated' | 'unauthenticated' | 'not_required' | 'unknown';

/** One account the agent reports, for display only (never an identifier, never logged). */
export interface AccountView {
  readonly label: string;
  readonly name?: string;
  readonly email?: string;
  readonly organization?: string;
  /** True when the agent says it uses this account by default. */
  readonly active?: boolean;
}

/** The agent's sign-in state and accounts, with what the user can do about it. */
export interface AuthStatusView {
  readonly state: AuthStateView;
  readonly accounts: readonly AccountView[];
  /** The agent offers login methods this client can run (Log In is shown when not signed in). */
  readonly canLogIn: boolean;
  /** The agent advertises `auth.logout` (Log Out is shown when signed in). */
  readonly canLogOut: boolean;
}

/** A configurable LLM provider of the agent. */
export interface ProviderView {
  readonly providerId: string;
  /** The protocols it speaks (`anthropic`, `openai`, `azure`, `vertex`, `bedrock`, or any other string). */
  readonly supported: readonly string[];
  /** Cannot be disabled. */
  readonly required: boolean;
  /** Its current routing; absent when it is disabled. */
  readonly current?: { readonly apiType: string; readonly baseUrl: string };
}

/** The providers section of the chat's settings popover. */
export interface ProvidersView {
  readonly providers: readonly ProviderView[];
  /** True until the first `providers/list` answered, and while a change is being sent. */
  readonly busy?: boolean;
  /** The last failure (listing, setting or disabling), in words, with the agent's explanation. */
  readonly error?: string;
}

/** What the chat shows of the agent beyond the session; a part is absent when the agent lacks its capability. */
export interface AgentAccountView {
  readonly auth?: AuthStatusView;
  readonly providers?: ProvidersView;
}

const knownStates: ReadonlySet<string> = new Set<AuthStateView>(['authenticated', 'unauthenticated', 'not_required', 'unknown']);

/** The state of an `auth/status` answer or update: a value this client does not know is `unknown`. */
export function authStateOf(state: string): AuthStateView {
  return knownStates.has(state) ? (state as AuthStateView) : 'unknown';
}

/** The accounts of an answer, without the fields the agent left empty. */
export function accountsOf(raw: readonly { label: string; name?: string | null; email?: string | null; organization?: string | null; active?: boolean | null }[] | undefined): AccountView[] {
  return (raw ?? []).map((a) => ({
    label: a.label,
    ...(a.name ? { name: a.name } : {}),
    ...(a.email ? { email: a.email } : {}),
    ...(a.organization ? { organization: a.organization } : {}),
    ...(typeof a.active === 'boolean' ? { active: a.active } : {}),
  }));
}

/** One account in a line: `Claude Max (Alice <alice@example.com>, Acme)`. */
export function accountLine(a: AccountView): string {
  const who = [a.name, a.email && (a.name ? `<${a.email}>` : a.email)].filter(Boolean).join(' ');
  const more = [who, a.organization].filter(Boolean).join(', ');
  return more ? `${a.label} (${more})` : a.label;
}

/** The account a short label names: the first active one, else the first. */
function mainAccount(accounts: readonly AccountView[]): AccountView | undefined {
  return accounts.find((a) => a.active) ?? accounts[0];
}

/** A few words for the chip in the chat's header and the detail line of Switch Session (raw text). */
export function authSummary(auth: Pick<AuthStatusView, 'state' | 'accounts'>): string {
  switch (auth.state) {
    case 'authenticated': {
      const main = mainAccount(auth.accounts);
      if (!main) return 'Signed in';
      const more = auth.accounts.length - 1;
      return `Signed in: ${main.name ?? main.email ?? main.label}${more > 0 ? ` +${more}` : ''}`;
    }
    case 'unauthenticated': return 'Not signed in';
    case 'not_required': return 'No sign-in needed';
    case 'unknown': return 'Sign-in state unknown';
  }
}

/** The tooltip of the header's chip: the state in words, then one line per account (raw text). */
export function authTooltip(auth: Pick<AuthStatusView, 'state' | 'accounts'>, agentName: string): string {
  const head = {
    authenticated: `${agentName}: signed in.`,
    unauthenticated: `${agentName}: not signed in. Log In to start sessions.`,
    not_required: `${agentName} needs no sign-in (for example, it uses a local model).`,
    unknown: `${agentName} cannot tell whether you are signed in.`,
  }[auth.state];
  if (!auth.accounts.length) return head;
  const lines = auth.accounts.map((a) => `• ${accountLine(a)}${a.active ? ' (active)' : ''}`);
  return [head, 'Accounts:', ...lines].join('\n');
}

/** The providers' protocols this client names; any other string is shown as the agent spelled it. */
export const knownProtocols: Readonly<Record<string, string>> = {
  anthropic: 'Anthropic', openai: 'OpenAI', azure: 'Azure OpenAI', vertex: 'Google Vertex AI', bedrock: 'AWS Bedrock',
};

/** A protocol's display name. */
export function protocolLabel(apiType: string): string {
  return knownProtocols[apiType] ?? apiType;
}
