/**
 * Where an agent runs (docs/remote-agents.md): on this machine as a child process (an entry without `transport`,
 * or `{"type": "stdio"}`), or on another machine through the system `ssh`, which carries the agent's stdio. ACP
 * over stdio is the same either way (https://agentclientprotocol.com/protocol/transports); what changes is what
 * the client can offer: an agent elsewhere does not see this machine's files or terminals, so it is offered
 * neither (src/host/clientFeature.ts, `local`).
 */
import * as z from 'zod/mini';

/** An agent started on another machine with `ssh -T`, its command looked up on the remote login shell. */
export interface SshTransport {
  readonly type: 'ssh';
  /** Host name, address or a `Host` alias of the user's `~/.ssh/config`. */
  readonly host: string;
  /** Remote user (default: ssh's: the `User` of the ssh config, else the local user name). */
  readonly user?: string;
  /** Port (default: ssh's: 22, or the ssh config's). */
  readonly port?: number;
  /** Private key file (`-i`, with `IdentitiesOnly`); `~/` is the local home. Default: ssh's keys and agent. */
  readonly identityFile?: string;
  /** Remote working directory, absolute: the session's `cwd` as the agent sees it. */
  readonly cwd: string;
  /** Extra ssh options, each `Key=Value` (passed as `-o Key=Value`), e.g. `StrictHostKeyChecking=accept-new`. */
  readonly options: readonly string[];
  /** The workspace folder that holds the files of `cwd` on this machine (src/agents/pathMapping.ts), as written. */
  readonly localFolder?: string;
}

/**
 * An agent served over the ACP remote transport (Streamable HTTP or WebSocket, an RFD the SDK implements in
 * `experimental/ws-client` and `experimental/http-client`): Switchboard connects, nothing is started here.
 */
export interface StreamTransport {
  readonly type: 'websocket' | 'http';
  /** The endpoint; absent when the entry's `command` prints it (placement by an engine: src/agents/endpointCommand.ts). */
  readonly url?: string;
  /** Names of headers sent at every connection whose values are kept in SecretStorage (asked for once). */
  readonly headers: readonly string[];
  /** The absolute folder the agent works in on its machine: the session's `cwd` as the agent sees it. */
  readonly cwd: string;
  /** The workspace folder that holds the files of `cwd` on this machine (src/agents/pathMapping.ts), as written. */
  readonly localFolder?: string;
}

/** How an agent is reached, when it is not a local child process. */
export type AgentTransport = SshTransport | StreamTransport;

/** Host names that stay on this machine: the only ones an endpoint may reach without TLS. */
function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * What is wrong with `url` as the endpoint of a `websocket` or `http` agent, if anything: the scheme must be the
 * transport's (`wss:`/`https:`; `ws:`/`http:` only on loopback, since headers carry credentials), with no user
 * name or password in it (headers carry those, from SecretStorage).
 */
export function endpointProblem(type: StreamTransport['type'], url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  const [secure, plain] = type === 'websocket' ? ['wss:', 'ws:'] : ['https:', 'http:'];
  if (u.protocol !== secure && u.protocol !== plain) return `${type === 'http' ? 'an HTTP' : 'a WebSocket'} endpoint must start with ${secure}// (or ${plain}// on this machine), not ${u.protocol}//`;
  if (u.protocol === plain && !isLoopback(u.hostname)) return `${plain}// is allowed only on this machine (localhost, 127.0.0.1, [::1]): use ${secure}// for ${u.hostname}`;
  if (u.username || u.password) return 'the endpoint must not carry a user name or password: put credentials in "transport.headers" (kept in SecretStorage)';
  return undefined;
}

/** Headers a transport sets itself, which an entry may not name. */
const reservedHeaders = /^(host|connection|upgrade|content-length|content-type|cookie|accept|transfer-encoding|acp-.*|sec-websocket-.*)$/i;
const headerPattern = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const cwdCheck = (what: string) => z.string({ error: `"transport.cwd" is required for ${what}: the absolute folder the agent works in on its machine, e.g. "/home/me/src/app"` }).check(
  z.refine((c) => c.startsWith('/') || /^[A-Za-z]:[\\/]/.test(c), { error: '"transport.cwd" must be an absolute path on the agent\'s machine (ACP sessions have an absolute cwd)' }),
  z.refine((c) => !c.includes('\0') && !c.includes('\n'), { error: '"transport.cwd" must be one line' }),
);
const localFolder = z.optional(z.string({ error: '"transport.localFolder" must be a string: a workspace folder, e.g. "${workspaceFolder}"' }).check(
  z.refine((c) => c.length > 0 && !c.includes('\0') && !c.includes('\n'), { error: '"transport.localFolder" must be one non-empty line' }),
));
const streamTransport = (type: StreamTransport['type']) => z.object({
  type: z.literal(type),
  url: z.optional(z.string({ error: '"transport.url" must be a string' }).check(z.refine((u) => endpointProblem(type, u) === undefined, {
    error: (issue) => endpointProblem(type, String(issue.input)) ?? 'invalid',
  }))),
  headers: z._default(z.array(z.string().check(
    z.regex(headerPattern, { error: 'each of "transport.headers" must be a header name, e.g. "Authorization"' }),
    z.refine((h) => !reservedHeaders.test(h), { error: 'a transport sets this header itself: it cannot be one of "transport.headers"' }),
  )), []),
  cwd: cwdCheck(type === 'websocket' ? 'WebSocket' : 'HTTP'),
  localFolder,
});

/** A host name, an address (`[::1]`, `fe80::1%eth0`) or an ssh config alias; never an option (no leading `-`). */
const hostPattern = /^[A-Za-z0-9_.:%[\]][A-Za-z0-9_.:%[\]-]*$/;
const userPattern = /^[A-Za-z0-9_.][A-Za-z0-9_.@-]*$/;
const optionPattern = /^[A-Za-z][A-Za-z0-9]*=[^\0\n]*$/;

/** Zod schema of an entry's `transport` (`stdio` is the default and carries nothing). */
export const transportSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stdio') }),
  z.object({
    type: z.literal('ssh'),
    host: z.string({ error: '"transport.host" is required for ssh: a host name, address or ~/.ssh/config alias' }).check(
      z.regex(hostPattern, { error: '"transport.host" must be a host name, an address or an ssh config alias (no spaces, and it must not start with "-")' }),
    ),
    user: z.optional(z.string().check(z.regex(userPattern, { error: '"transport.user" must be a user name (letters, digits, ".", "_", "-", "@")' }))),
    port: z.optional(z.number({ error: '"transport.port" must be a number' }).check(z.int(), z.minimum(1), z.maximum(65535))),
    identityFile: z.optional(z.string().check(z.minLength(1, { error: '"transport.identityFile" must not be empty' }))),
    cwd: z.string({ error: '"transport.cwd" is required for ssh: the remote folder the agent works in, e.g. "/home/me/src/app"' }).check(
      z.refine((c) => c.startsWith('/'), { error: '"transport.cwd" must be an absolute path on the remote machine (ACP sessions have an absolute cwd)' }),
      z.refine((c) => !c.includes('\0') && !c.includes('\n'), { error: '"transport.cwd" must be one line' }),
    ),
    options: z._default(z.array(z.string().check(z.regex(optionPattern, {
      error: 'each of "transport.options" must be an ssh option "Key=Value", e.g. "StrictHostKeyChecking=accept-new"',
    }))), []),
    localFolder,
  }),
  streamTransport('websocket'),
  streamTransport('http'),
], { error: '"transport" must be {"type": "stdio"}, {"type": "ssh", "host": …, "cwd": …}, or {"type": "websocket" | "http", "url": …, "cwd": …}' });

/** The transport of a parsed entry: undefined for a local child process. */
export function transportOf(value: z.infer<typeof transportSchema> | undefined): AgentTransport | undefined {
  if (!value || value.type === 'stdio') return undefined;
  const local = value.localFolder ? { localFolder: value.localFolder } : {};
  if (value.type !== 'ssh') return { type: value.type, headers: value.headers, cwd: value.cwd, ...(value.url ? { url: value.url } : {}), ...local };
  const { host, user, port, identityFile, cwd, options } = value;
  return { type: 'ssh', host, cwd, options, ...(user ? { user } : {}), ...(port ? { port } : {}), ...(identityFile ? { identityFile } : {}), ...local };
}

/**
 * Whether an agent elsewhere ended by losing its connection (it is reconnected: src/host/lifecycle/reconnect.ts)
 * rather than by exiting (a crash, the restart policy): a WebSocket or HTTP connection that ended, or `ssh` exiting
 * 255, its own code for a connection refused, dropped or timed out (other codes are the agent's).
 */
export function lostConnection(t: AgentTransport | undefined, exit: { readonly requested: boolean; readonly code: number | null; readonly error: { readonly reason: string } }): boolean {
  if (!t || exit.requested) return false;
  return t.type === 'ssh' ? exit.code === 255 : exit.error.reason === 'disconnected';
}

/** Where an agent runs, for people: "build-1 over SSH" (`user@host:port` as given), "wss://acp.example/agent over WebSocket". */
export function transportLabel(t: AgentTransport): string {
  if (t.type !== 'ssh') return `${t.url ?? 'the endpoint its command prints'} over ${t.type === 'websocket' ? 'WebSocket' : 'HTTP'}`;
  return `${t.user ? `${t.user}@` : ''}${t.host}${t.port ? `:${t.port}` : ''} over SSH`;
}

/**
 * What a new session's chat says of an agent elsewhere: with a path mapping (`local`, src/agents/pathMapping.ts),
 * what it may do here; without one, what it cannot, and (`problem`) why its `localFolder` is not used.
 */
export function remoteNotice(agentName: string, t: AgentTransport, local?: string, problem?: string): string {
  const where = `${agentName} runs ${t.type === 'ssh' ? 'on' : 'at'} ${transportLabel(t)}, in ${t.cwd}`;
  if (local) {
    return `${where}, which is the workspace folder ${local} here: it reads and writes files there through this editor (unsaved changes included), `
      + 'and a command it runs in a terminal runs on this machine only after you allow it.';
  }
  return `${where}: it reads and writes files and runs commands there with its own tools. `
    + 'It does not see this editor\'s unsaved files or its terminals, and Switchboard takes no checkpoints of what it changes.'
    + (problem ? ` Its "transport.localFolder" is not used: ${problem}.` : '');
}

/** A word for a POSIX shell: single-quoted, a `'` inside as `'\''` (the one quoting that every POSIX shell and fish read alike). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** What runs on the remote machine and how the agent's process there is reached. */
export interface SshLaunch {
  /** The local program: `ssh`. */
  readonly command: 'ssh';
  /** Its arguments: options, the host, then the one remote command line. */
  readonly args: readonly string[];
}

/** Keepalives: a dead connection shows within about 45 s (the agent's exit, then the restart that reconnects). */
const keepalive = ['-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3'];

/**
 * The `ssh` command line that runs an agent on the machine of `t`. ssh passes its one remote command to the remote
 * user's shell, which may be any shell: that command only starts `/bin/sh`, which enters `cwd`, reads the agent's
 * environment from the pipe ({@link envPreamble}: never on a command line, where `ps` would show it) and hands
 * the agent's command to the user's login shell (`$SHELL -lc`), so that it is looked up on the PATH the user's
 * profile sets, as a local agent's is on the local login shell's. `-T`: no terminal (the pipe is the protocol);
 * `BatchMode`: no password prompt that nobody could answer (a key or an ssh agent is needed, and a refusal
 * shows as ssh's exit with its message).
 */
export function sshLaunch(t: SshTransport, command: string, args: readonly string[]): SshLaunch {
  const agent = [command, ...args].map(shellWord).join(' ');
  const script = `cd ${shellWord(t.cwd)} || exit 127; while IFS= read -r l && [ -n "$l" ]; do export "$l"; done; exec "\${SHELL:-/bin/sh}" -lc ${shellWord(`exec ${agent}`)}`;
  const remote = `exec /bin/sh -c ${shellWord(script)}`;
  return {
    command: 'ssh',
    args: [
      '-T', '-o', 'BatchMode=yes', ...keepalive, '-o', 'ConnectTimeout=20',
      ...(t.port ? ['-p', String(t.port)] : []),
      ...(t.user ? ['-l', t.user] : []),
      ...(t.identityFile ? ['-i', t.identityFile, '-o', 'IdentitiesOnly=yes'] : []),
      ...t.options.flatMap((o) => ['-o', o]),
      t.host, remote,
    ],
  };
}

/** A name the remote `/bin/sh` can export. */
const exportable = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What the host writes to a remote agent's stdin before the protocol starts: one `NAME=value` line per variable,
 * then an empty line, read by {@link sshLaunch}'s script before it starts the agent (which then reads the
 * protocol from the same pipe). A variable that cannot travel this way (a name `sh` cannot export, a value with a
 * line break) is left out and named in `skipped`.
 */
export function envPreamble(env: Readonly<Record<string, string>>): { readonly text: string; readonly skipped: readonly string[] } {
  const lines: string[] = [];
  const skipped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (exportable.test(name) && !/[\n\r\0]/.test(value)) lines.push(`${name}=${value}`);
    else skipped.push(name);
  }
  return { text: `${lines.map((l) => `${l}\n`).join('')}\n`, skipped };
}
