/**
 * A client capability owns both its advertisement in `initialize` and the wiring of the agent's requests it
 * serves, as vscode-languageclient's features do (`fillClientCapabilities` + `initialize`): adding one is a
 * feature object in its capability folder plus one line in src/host/features.ts (docs/recipes.md#add-a-client-capability).
 * An omitted capability means unsupported, so a capability is advertised exactly when its handlers are
 * registered (https://agentclientprotocol.com/protocol/initialization).
 */
import type { AcpConnection } from '../acp/connection';
import type { ClientCapabilities } from '../acp/schema/types.gen';
import type { Disposable, SessionPart } from './sessionContext';

/**
 * One client capability. `S` is the part of each session that serves its requests (`part`, one of the session
 * parts of src/host/features.ts); `route` finds it by the request's `sessionId` and throws invalid params for an
 * unknown id. `A` is what it needs of the agent, for messages that belong to no session (`auth/status_update`).
 */
export interface ClientFeature<S extends Disposable = never, A = unknown> {
  /** Sets this feature's part of the client capabilities. */
  fillClientCapabilities(capabilities: ClientCapabilities): void;
  /**
   * It serves the agent from this machine: its files (`fs/*`), its processes (`terminal/*`, a terminal login). An
   * agent that runs elsewhere (src/agents/agentTransport.ts) is neither offered it nor served it.
   */
  readonly local?: boolean;
  /** A {@link local} feature that an agent elsewhere gets through a path mapping (`fs/*`, `terminal/*`: src/agents/pathMapping.ts). */
  readonly mapped?: boolean;
  /** The part of each session that serves this feature's requests (none for a feature without session requests). */
  readonly part?: SessionPart<S, never>;
  /**
   * Registers the handlers of the agent's requests this feature serves (none for a purely declared capability);
   * `log` writes to the agent's log (for messages that belong to no session); `agent` takes those messages.
   */
  register?(connection: AcpConnection, route: (sessionId: string) => S, log: (message: string) => void, agent: A): void;
}

/**
 * The features an agent gets: all of them on this machine; elsewhere none of the {@link ClientFeature.local} ones,
 * except, with a path mapping (`mapped`), the {@link ClientFeature.mapped} ones.
 */
export function featuresFor<F extends Pick<ClientFeature<Disposable, never>, 'local' | 'mapped'>>(features: readonly F[], remote: boolean, mapped = false): readonly F[] {
  return remote ? features.filter((f) => !f.local || (mapped && f.mapped)) : features;
}

/** The capabilities advertised by a set of features. */
export function clientCapabilitiesOf(features: readonly ClientFeature<Disposable, never>[]): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  for (const f of features) f.fillClientCapabilities(capabilities);
  return capabilities;
}
