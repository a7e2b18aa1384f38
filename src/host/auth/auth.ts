/**
 * Authentication (https://agentclientprotocol.com/protocol/initialization#authentication): when a request fails with `auth_required` (-32000), the
 * agent's `authMethods` from `initialize` are offered, the chosen one is run, and the original request is
 * retried once.
 * - `agent` (no type, or `"agent"`): `authenticate {methodId}`; the agent runs its own flow.
 * - `env_var`: the values are asked for (password-style for secret ones, optional ones may be left
 *   empty, the method's `link` is offered), kept in SecretStorage, and the agent is restarted with them in
 *   its environment, then `authenticate` is sent. They never reach settings or logs.
 * - `terminal`: the agent's own command runs in a VS Code terminal with the method's args and env added;
 *   when it exits with 0 the agent is restarted.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { AcpError } from '../../acp/errors';
import type { AgentHost } from '../agentHost';
import type { AgentSecrets } from './secrets';
import { inert, inertText } from '../../shared/inertText';
import { typedError } from '../../shared/typedError';

const common = { id: z.string().check(z.minLength(1)), name: z.string(), description: z.nullish(z.string()) };
const envVarSchema = z.object({
  name: z.string().check(z.regex(/^[^=\0]+$/)),
  label: z.nullish(z.string()),
  secret: z._default(z.boolean(), true),
  optional: z._default(z.boolean(), false),
});
// the generated schema models only agent and terminal methods; env_var (UNSTABLE) arrives as extra keys
const methodSchema = z.union([
  z.object({ ...common, type: z.literal('env_var'), vars: z.array(envVarSchema).check(z.minLength(1)), link: z.nullish(z.string()) }),
  z.object({ ...common, type: z.literal('terminal'), args: z.nullish(z.array(z.string())), env: z.nullish(z.record(z.string(), z.string())) }),
  z.object({ ...common, type: z.optional(z.literal('agent')) }),
]);

/** An auth method this client can run. */
export type AuthMethodInfo = z.infer<typeof methodSchema>;
/** One variable of an `env_var` method. */
export type AuthEnvVarInfo = z.infer<typeof envVarSchema>;

/** The usable methods of an initialize answer; unknown types and malformed entries are left out. */
export function parseAuthMethods(raw: unknown): AuthMethodInfo[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m: unknown) => {
    const r = methodSchema.safeParse(m);
    return r.success ? [r.data] : [];
  });
}

/** The user-facing questions of a login; replaced in tests. */
export interface AuthPrompter {
  /** Which method to use (undefined: cancelled). */
  pickMethod(agentName: string, methods: readonly AuthMethodInfo[]): Promise<AuthMethodInfo | undefined>;
  /** The value of one variable (undefined: cancelled; '' leaves an optional one unset). */
  askValue(agentName: string, method: AuthMethodInfo & { type: 'env_var' }, v: AuthEnvVarInfo): Promise<string | undefined>;
  /** The value of a connection header of an agent served elsewhere (undefined: cancelled); default: a password box. */
  askHeader?(agentName: string, header: string): Promise<string | undefined>;
}

/** Thrown when the user cancelled a login. */
export class AuthCancelledError extends typedError('AuthCancelledError') {}

/** What a login needs from the session manager. */
export interface AuthDeps {
  readonly secrets: Pick<AgentSecrets, 'envFor' | 'store' | 'clear'>;
  readonly prompter: AuthPrompter;
  /** Restarts the agent (its sessions are reattached) and returns the new, initialized host. */
  restart(host: AgentHost): Promise<AgentHost>;
  /** After a login: the agent's sign-in state is asked again (src/host/auth/agentAccounts.ts). */
  afterLogin?(host: AgentHost): Promise<void>;
}

/** Runs logins for agents. */
export class AgentAuth {
  constructor(private readonly deps: AuthDeps) {}

  /**
   * Runs `call` on `host`; on `auth_required` the user logs in and `call` runs once more (on the new host
   * when the login restarted the agent). Other errors pass through.
   * @throws AuthCancelledError when the user cancelled the login
   */
  async withAuth<T>(host: AgentHost, call: (host: AgentHost) => Promise<T>): Promise<T> {
    try {
      return await call(host);
    } catch (error) {
      if (!AcpError.isAuthRequired(error)) throw error;
      host.log.info(`${host.definition.name} requires authentication (auth_required)`);
    }
    const next = await this.login(host);
    return call(next);
  }

  /** Offers the agent's auth methods and runs the chosen one; returns the host to use afterwards. */
  async login(host: AgentHost): Promise<AgentHost> {
    const next = await this.runLogin(host);
    await this.deps.afterLogin?.(next);
    return next;
  }

  private async runLogin(host: AgentHost): Promise<AgentHost> {
    const name = host.definition.name;
    const methods = parseAuthMethods(host.initializeResponse?.authMethods);
    if (!methods.length) throw new Error(`${name} requires authentication but offers no login method this client supports. Log in outside VS Code (see the agent's documentation), then try again.`);
    const method = await this.deps.prompter.pickMethod(name, methods);
    if (!method) throw new AuthCancelledError(`Login to ${name} was cancelled.`);
    host.log.info(`logging in with '${method.id}' (${method.type ?? 'agent'})`);
    switch (method.type) {
      case 'env_var': return this.loginWithEnv(host, method);
      case 'terminal': return this.loginInTerminal(host, method);
      default:
        await host.connection.request('authenticate', { methodId: method.id });
        host.log.info(`authenticated with '${method.id}'`);
        return host;
    }
  }

  private async loginWithEnv(host: AgentHost, method: AuthMethodInfo & { type: 'env_var' }): Promise<AgentHost> {
    const values: Record<string, string> = {};
    for (const v of method.vars) {
      const value = await this.deps.prompter.askValue(host.definition.name, method, v);
      if (value === undefined) throw new AuthCancelledError(`Login to ${host.definition.name} was cancelled.`);
      if (value) values[v.name] = value;
    }
    await this.deps.secrets.store(host.definition.id, values);
    host.log.info(`stored ${Object.keys(values).join(', ') || 'no values'} in SecretStorage; restarting ${host.definition.name} with them`);
    const next = await this.deps.restart(host);
    // RFD auth-methods: restart with the variables, then send authenticate with the method's id
    await next.connection.request('authenticate', { methodId: method.id });
    return next;
  }

  private async loginInTerminal(host: AgentHost, method: AuthMethodInfo & { type: 'terminal' }): Promise<AgentHost> {
    const def = host.definition;
    const env = { ...(await this.deps.secrets.envFor(def.id)), ...def.env, ...(method.env ?? {}) };
    // "the exact same agent binary with the exact same setup", args/env in addition (the terminal auth method's rule)
    const terminal = vscode.window.createTerminal({
      name: inert.label`${def.name}: ${method.name}`, shellPath: def.command, shellArgs: [...def.args, ...(method.args ?? [])], env, cwd: host.cwd,
      message: `Switchboard: log in to ${def.name}. This terminal closes when the login is done.`,
    });
    terminal.show();
    const code = await new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidCloseTerminal((t) => {
        if (t !== terminal) return;
        sub.dispose();
        resolve(t.exitStatus?.code);
      });
    });
    if (code !== 0) throw new Error(`The login of ${def.name} in the terminal did not succeed (exit code ${code ?? 'unknown'}).`);
    host.log.info(`terminal login '${method.id}' finished; restarting ${def.name}`);
    return this.deps.restart(host);
  }
}

/** The real prompts: a QuickPick of methods and an InputBox per variable. */
export const vscodeAuthPrompter: AuthPrompter = {
  async pickMethod(agentName, methods) {
    const pick = await vscode.window.showQuickPick(methods.map((m) => ({
      label: inertText(m.name, 'label'),
      description: m.type === 'env_var' ? 'enter a key' : m.type === 'terminal' ? 'in a terminal' : undefined,
      detail: m.description ? inertText(m.description, 'label') : undefined,
      method: m,
    })), { title: inert.label`${agentName} requires you to log in`, placeHolder: 'Choose how to log in', ignoreFocusOut: true });
    return pick?.method;
  },
  async askValue(agentName, method, v) {
    const getLink: vscode.QuickInputButton | undefined = method.link ? { iconPath: new vscode.ThemeIcon('link-external'), tooltip: inert.plain`Get it: ${method.link}` } : undefined;
    const box = vscode.window.createInputBox();
    box.title = inert.label`${agentName}: ${method.name}`;
    box.prompt = inert.label`${v.label ?? v.name}${v.optional ? ' (optional: leave empty to skip)' : ''}. Kept in VS Code's secret storage, passed to the agent as ${v.name}.`;
    box.placeholder = v.name;
    box.password = v.secret;
    box.ignoreFocusOut = true;
    if (getLink) box.buttons = [getLink];
    return new Promise<string | undefined>((resolve) => {
      let done = false;
      const finish = (value: string | undefined) => {
        if (done) return;
        done = true;
        resolve(value);
        box.dispose();
      };
      box.onDidTriggerButton(() => { if (method.link) void vscode.env.openExternal(vscode.Uri.parse(method.link)); });
      box.onDidChangeValue(() => { box.validationMessage = undefined; });
      box.onDidAccept(() => {
        if (!box.value && !v.optional) {
          box.validationMessage = `${v.label ?? v.name} is required.`;
          return;
        }
        finish(box.value);
      });
      box.onDidHide(() => finish(undefined));
      box.show();
    });
  },
};
