/**
 * The path mapping of an agent that runs elsewhere (docs/remote-agents.md#path-mapping): its folder there
 * (`transport.cwd`) is this machine's workspace folder `transport.localFolder` (a synced folder, a bind mount, a
 * network share). With it the agent gets `fs/*` and `terminal/*` again, and every path that crosses the
 * connection is translated at the connection (src/acp/connection.ts, `translate`): the agent's paths into this
 * machine's on the way in, the prompt's file links into the agent's on the way out. A path of the agent's that
 * is outside its mapped folder has no meaning here: a request that needs one is refused.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AcpError } from '../acp/errors';
import type { ParamsTranslator } from '../acp/connection';

/** A folder on the agent's machine and the one on this machine that holds the same files. */
export interface PathMapping {
  /** Absolute, on the agent's machine (POSIX, or a Windows drive path). */
  readonly remote: string;
  /** Absolute, on this machine: a workspace folder or a folder in one. */
  readonly local: string;
}

/** The path flavour of the agent's machine, told by its folder. */
function remoteFlavour(root: string): path.PlatformPath {
  return /^[A-Za-z]:[\\/]/.test(root) ? path.win32 : path.posix;
}

/** `to` relative to `from` when it is inside it (`''` for the folder itself), else undefined. */
function inside(flavour: path.PlatformPath, from: string, to: string): string[] | undefined {
  if (!flavour.isAbsolute(to)) return undefined;
  const rel = flavour.relative(flavour.normalize(from), flavour.normalize(to));
  if (rel === '..' || rel.startsWith(`..${flavour.sep}`) || flavour.isAbsolute(rel)) return undefined;
  return rel ? rel.split(flavour.sep) : [];
}

/** This machine's path of the agent's `remotePath`, when it is in the mapped folder (`..` cannot leave it). */
export function toLocal(m: PathMapping, remotePath: string): string | undefined {
  const parts = inside(remoteFlavour(m.remote), m.remote, remotePath);
  return parts && path.join(m.local, ...parts);
}

/** The agent's path of this machine's `localPath`, when it is in the mapped folder. */
export function toRemote(m: PathMapping, localPath: string): string | undefined {
  const parts = inside(path, m.local, localPath);
  const flavour = remoteFlavour(m.remote);
  return parts && flavour.join(m.remote, ...parts);
}

/** A `file:` URI of a path on the agent's machine. */
function remoteFileUri(p: string): string {
  const slashed = p.replace(/\\/g, '/');
  const encoded = slashed.split('/').map((s, i) => (i === 0 && /^[A-Za-z]:$/.test(s) ? s : encodeURIComponent(s))).join('/');
  return `file://${encoded.startsWith('/') ? '' : '/'}${encoded}`;
}

/** The agent's `file:` URI of a local `file:` URI in the mapped folder; any other URI as it is. */
function uriToRemote(m: PathMapping, uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  let local: string;
  try {
    local = fileURLToPath(uri); // throws for another host's file
  } catch {
    return uri;
  }
  const remote = toRemote(m, local);
  return remote ? remoteFileUri(remote) : uri;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tool call's locations and diffs with local paths: a location outside the mapped folder is left out (nothing here to open). */
function toolCallToLocal(m: PathMapping, call: Json): Json {
  const out: Json = { ...call };
  if (Array.isArray(call.locations)) {
    out.locations = call.locations.flatMap((l: unknown) => {
      if (!isObject(l) || typeof l.path !== 'string') return [l];
      const local = toLocal(m, l.path);
      return local ? [{ ...l, path: local }] : [];
    });
  }
  if (Array.isArray(call.content)) {
    out.content = call.content.map((c: unknown) => {
      if (!isObject(c) || c.type !== 'diff' || typeof c.path !== 'string') return c;
      const local = toLocal(m, c.path);
      return local ? { ...c, path: local } : c;
    });
  }
  return out;
}

/** The agent's path of a request that must be in the mapped folder, as this machine's; refuses one outside it. */
function requiredLocal(m: PathMapping, method: string, field: string, p: string): string {
  const local = toLocal(m, p);
  if (local !== undefined) return local;
  throw AcpError.invalidParams(`'${method}': ${field} "${p}" is outside ${m.remote}, the agent's folder that this client maps to its workspace folder ${m.local}: it serves only paths in that folder`);
}

/** The translations of {@link PathMapping} for the connection. */
export function pathTranslator(m: PathMapping): ParamsTranslator {
  return {
    incoming(method, params) {
      if (!isObject(params)) return params;
      switch (method) {
        case 'fs/read_text_file':
        case 'fs/write_text_file':
          return typeof params.path === 'string' ? { ...params, path: requiredLocal(m, method, 'path', params.path) } : params;
        case 'terminal/create':
          return typeof params.cwd === 'string' ? { ...params, cwd: requiredLocal(m, method, 'cwd', params.cwd) } : params;
        case 'session/request_permission':
          return isObject(params.toolCall) ? { ...params, toolCall: toolCallToLocal(m, params.toolCall) } : params;
        case 'session/update': {
          const u = params.update;
          if (!isObject(u) || (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update')) return params;
          return { ...params, update: toolCallToLocal(m, u) };
        }
        default:
          return params;
      }
    },
    outgoing(method, params) {
      if (method !== 'session/prompt' || !isObject(params) || !Array.isArray(params.prompt)) return params;
      return {
        ...params,
        prompt: params.prompt.map((b: unknown) => {
          if (!isObject(b)) return b;
          if (b.type === 'resource_link' && typeof b.uri === 'string') return { ...b, uri: uriToRemote(m, b.uri) };
          if (b.type === 'resource' && isObject(b.resource) && typeof b.resource.uri === 'string') return { ...b, resource: { ...b.resource, uri: uriToRemote(m, b.resource.uri) } };
          return b;
        }),
      };
    },
  };
}

/** A workspace folder of the window: its name and absolute path. */
export interface LocalFolder {
  readonly name: string;
  readonly path: string;
}

const realDir = (p: string): string | undefined => {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The mapping of an agent whose folder there is `remote` and whose entry names `localFolder` here: an absolute
 * path, `~/…`, or `${workspaceFolder}` / `${workspaceFolder:name}` (with a sub-folder after it). It is valid
 * when that is an existing folder in one of the window's workspace `folders`; otherwise `problem` says why not.
 */
export function resolveMapping(remote: string, localFolder: string, folders: readonly LocalFolder[], home: string): { mapping?: PathMapping; problem?: string } {
  const variable = /^\$\{workspaceFolder(?::([^}]*))?\}/.exec(localFolder);
  let given = localFolder;
  if (variable) {
    const folder = variable[1] === undefined ? folders[0] : folders.find((f) => f.name === variable[1]);
    if (!folder) return { problem: variable[1] === undefined ? 'no folder is open in this window' : `this window has no workspace folder named "${variable[1]}"` };
    given = path.join(folder.path, localFolder.slice(variable[0].length));
  } else if (localFolder === '~' || localFolder.startsWith('~/')) {
    given = path.join(home, localFolder.slice(1));
  } else if (!path.isAbsolute(localFolder)) {
    return { problem: `"${localFolder}" is not an absolute path (or \${workspaceFolder})` };
  }
  const local = realDir(given);
  if (!local) return { problem: `${given} is not a folder on this machine` };
  const inFolder = folders.some((f) => {
    const root = realDir(f.path);
    return root !== undefined && inside(path, root, local) !== undefined;
  });
  if (!inFolder) return { problem: `${local} is not in a workspace folder of this window` };
  return { mapping: { remote, local } };
}
