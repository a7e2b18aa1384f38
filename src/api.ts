/**
 * What `activate` returns: a small API used by the integration tests (and other extensions) to observe and
 * drive sessions without clicking through the UI. It hands out ids and snapshots, never live objects: a
 * caller cannot reach into a session. Only an extension host running tests also gets the live sessions
 * ({@link SwitchboardTestApi}).
 */
import type { AuthPrompter } from './host/auth/auth';
import type { ScopedPreset } from './agents/presets';
import type { AgentSession } from './host/agentSession';
import type { AgentAccounts } from './host/auth/agentAccounts';
import type { SavedProvider } from './host/auth/secrets';
import type { SessionsApi } from './workbench/sessions/sessionsFeature';
import type { ThreadSnapshot } from './shared/viewModel';
import type { RegistryApi } from './workbench/registry/registryCommands';
import type { WorktreeApi } from './workbench/worktrees/worktreeRegistration';

/** Switchboard's extension API. */
export interface SwitchboardApi extends SessionsApi, WorktreeApi {
  /** Starts a session with an agent id, opens its chat (unless `chat` is false), and returns its session id. */
  newSession(agentId: string, options?: { readonly chat?: boolean }): Promise<string>;
  /** The presets New Session offers (the workspace's only in a trusted workspace). */
  presets(): ScopedPreset[];
  /** Starts a session from a preset (as New Session does), opens its chat, and returns its session id. */
  startPreset(name: string): Promise<string>;
  /** Sends a prompt and resolves when the turn ended. */
  prompt(sessionId: string, text: string): Promise<void>;
  /** Cancels the running turn. */
  cancel(sessionId: string): void;
  /** Answers a pending permission request with the first option of the given kind. */
  respondPermission(sessionId: string, kind: string): boolean;
  /** The thread as the chat sees it. */
  snapshot(sessionId: string): ThreadSnapshot | undefined;
  /** Ids of open sessions. */
  sessionIds(): string[];
  /** The capabilities Switchboard advertises in `initialize`. */
  clientCapabilities(): unknown;
  /** Stops every agent process. */
  stopAll(): Promise<void>;
  /** Restarts the agent of a session and reopens its sessions (what the chat's Restart button does). */
  restartAgent(sessionId: string): Promise<void>;
  /** Replaces the login questions (QuickPick, InputBox) with scripted answers; undefined restores them. */
  setAuthPrompter(prompter: AuthPrompter | undefined): void;
  /** The `env_var` login values kept in SecretStorage for an agent. */
  storedAgentEnv(agentId: string): Promise<Record<string, string>>;
  /** The untrusted-workspace notice, when it applies. */
  workspaceTrustNotice(): Promise<string | undefined>;
  /** The ACP Registry: browse, install and manage without the pickers. */
  readonly registry: RegistryApi;
  /** The folder of the extension's logs (its log output channels are files next to it). */
  logDir(): string;
  /** The extension's global storage folder (`<user data>/User/globalStorage/<id>`: the user settings.json is two levels up). */
  globalStorageDir(): string;
}

/**
 * The API in an extension host that runs tests (`ExtensionMode.Test`): the live session objects too, so that
 * integration tests and the extension-host benchmarks reach a session's handlers.
 */
export interface SwitchboardTestApi extends SwitchboardApi {
  session(sessionId: string): AgentSession | undefined;
  /** The agents' sign-in states and model providers (its Set flow can be scripted). */
  readonly accounts: AgentAccounts;
  /** The model providers kept in SecretStorage for an agent, keys included. */
  storedProviders(agentId: string): Promise<Record<string, SavedProvider>>;
}
