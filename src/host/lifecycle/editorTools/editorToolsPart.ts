/**
 * What a session takes from the setup that (re)opened it (src/host/lifecycle/sessionSetup.ts): its additional
 * directories, and the editor tools' grant, held by a session part that follows the session's roots and revokes
 * the grant when the session ends (docs/editor-tools.md). No vscode import: the lifecycle's unit tests load it.
 */
import type { AgentSession } from '../../agentSession';
import type { PermissionBroker } from '../../permissions/permissionBroker';
import type { SessionContext, SessionPart } from '../../sessionContext';
import type { McpServer } from '../../../acp/schema/types.gen';
import type { SessionSetup } from '../sessionSetup';
import { editorGrantKey, type EditorGrant } from './grant';

/** Each session's editor tools grant: it follows the session's roots and ends with the session. */
export class EditorToolsBinding {
  private _grant: EditorGrant | undefined;
  private _servers: readonly McpServer[] = [];
  private _editor: McpServer | undefined;

  constructor(private readonly context: SessionContext) {}

  /** The session's current grant, if it was offered the tools. */
  get grant(): EditorGrant | undefined { return this._grant; }

  /** Takes the grant of the setup that (re)opened the session; an older one stops working. */
  hold(grant: EditorGrant | undefined, permissions: PermissionBroker): void {
    if (!grant || grant === this._grant) return;
    this._grant?.revoke();
    this._grant = grant;
    grant.sessionId = this.context.sessionId;
    grant.session = { ctx: this.context, permissions };
    grant.log(`session ${this.context.sessionId}`);
    this.rootsChanged();
  }

  /** Keeps the MCP servers the last setup gave the session, `editor` the editor's own among them (the header's tooltip). */
  setServers(servers: readonly McpServer[], editor: McpServer | undefined): void {
    this._servers = servers;
    this._editor = editor;
  }

  /** The MCP servers of the session as tooltip lines: the editor's tools (with their transport), then the user's. */
  tooltip(): string | undefined {
    if (!this._servers.length) return undefined;
    const line = (s: McpServer) => {
      const transport = 'type' in s && (s.type === 'http' || s.type === 'sse') ? s.type.toUpperCase() : 'stdio';
      return s === this._editor ? `${s.name}: the editor's tools (${transport})` : `${s.name} (${transport})`;
    };
    return `MCP servers of this session:\n${this._servers.map(line).join('\n')}`;
  }

  rootsChanged(): void {
    if (this._grant) this._grant.roots = [this.context.cwd, ...this.context.additionalDirectories];
  }

  dispose(): void {
    this._grant?.revoke();
    this._grant = undefined;
  }
}

/** The session part that holds the editor tools' grant (src/host/features.ts lists it). */
export const editorToolsPart: SessionPart<EditorToolsBinding> = {
  name: 'editor tools',
  create: ({ context }) => new EditorToolsBinding(context),
  rootsChanged: (binding) => binding.rootsChanged(),
};

/** What a session takes from the setup that opened it: its additional directories and the editor tools' grant. */
export function applySetup(session: AgentSession, setup: SessionSetup): void {
  session.setAdditionalDirectories(setup.additionalDirectories ?? []);
  const grant = setup[editorGrantKey];
  if (!grant && !setup.mcpServers.length) return;
  const binding = session.part(editorToolsPart);
  if (grant) binding.hold(grant, session.permissions);
  else binding.dispose(); // reopened without the editor's tools (turned off): the old token stops working too
  // SessionSetupFields.for adds the editor's server last
  binding.setServers(setup.mcpServers, grant ? setup.mcpServers[setup.mcpServers.length - 1] : undefined);
}
