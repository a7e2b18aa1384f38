/**
 * The `switchboard.permissions.autoApprove` decision (no vscode import: unit-tested in plain Node).
 * `reads` answers `allow_once` for a request that is a read by its content (docs/approvals.md): its declared kind is
 * read, search, think or fetch, AND its `rawInput` carries no command and nothing to write, it has no diff, and every
 * path it names (locations and `rawInput`) is inside the session's roots. The declared kind alone never approves
 * (clients MAY auto-allow according to user settings, https://agentclientprotocol.com/protocol/tool-calls).
 */
import * as path from 'node:path';
import type { PermissionOption, ToolCallContent, ToolKind } from '../../acp/schema/types.gen';
import { isInside, normalizeAgentPath, realRoots, resolveRealPath } from '../files/pathPolicy';
import { writesByContent } from './grantLedger';

/** The values of `switchboard.permissions.autoApprove`. */
export type AutoApprovePolicy = 'never' | 'reads';

/** The tool kinds `reads` may answer. */
export const autoApprovableKinds: ReadonlySet<ToolKind> = new Set<ToolKind>(['read', 'search', 'think', 'fetch']);

/** Kinds that need no location to be approved (they do not name a file). `read` without one is asked. */
const locationFreeKinds: ReadonlySet<ToolKind> = new Set<ToolKind>(['search', 'think', 'fetch']);

/** What the decision looks at: the tool call as the thread knows it after the request's patch. */
export interface AutoApproveInput {
  readonly toolKind: ToolKind;
  readonly locations: readonly { readonly path: string }[];
  readonly options: readonly PermissionOption[];
  readonly rawInput?: unknown;
  readonly content?: readonly ToolCallContent[];
}

/** `rawInput` keys, at any depth, that name a command to run: a request carrying one is never a read. */
const commandKeys = new Set(['command', 'cmd', 'commandLine', 'command_line', 'script', 'shell', 'argv', 'exec']);
/** `rawInput` keys, at any depth, that name a file or folder: each must be inside the roots. */
const pathLikeKeys = new Set(['path', 'paths', 'file', 'files', 'file_path', 'filePath', 'notebook_path', 'abs_path', 'absolute_path', 'dir', 'directory', 'cwd', 'workdir', 'target', 'destination', 'dest', 'source', 'root']);

/** What the `rawInput` of a request says about it: a command or write inside, and the paths it names. */
function inspectRawInput(raw: unknown, depth = 0, out = { command: false, paths: [] as string[] }, key = ''): typeof out {
  if (depth > 8) {
    out.command = true; // too deep to read: not a read by its content
    return out;
  }
  if (typeof raw === 'string') {
    if (pathLikeKeys.has(key) || raw.startsWith('~')) out.paths.push(raw);
  } else if (Array.isArray(raw)) {
    raw.forEach((v) => inspectRawInput(v, depth + 1, out, key));
  } else if (typeof raw === 'object' && raw !== null) {
    for (const [k, v] of Object.entries(raw)) {
      if (commandKeys.has(k) && v !== undefined && v !== null && v !== '') out.command = true;
      inspectRawInput(v, depth + 1, out, k);
    }
  }
  return out;
}

/**
 * What a request that declares itself a read (read, search, think, fetch) really carries when it is not one: a
 * command, or something to write; undefined when it carries neither (or declares another kind). The turn audit
 * flags such a request (src/host/permissions/turnAudit.ts).
 */
export function actsBeyondItsKind(toolKind: ToolKind, rawInput: unknown, content: readonly ToolCallContent[]): 'a command' | 'a write' | undefined {
  if (!autoApprovableKinds.has(toolKind)) return undefined;
  const raw = typeof rawInput === 'string' ? parseJson(rawInput) : rawInput;
  if (inspectRawInput(raw).command) return 'a command';
  return writesByContent({ rawInput: raw, locations: [], content }) ? 'a write' : undefined;
}

/**
 * The option to pick without asking, or undefined to ask the user.
 * @param roots the session's roots (cwd and additionalDirectories), absolute
 */
export async function autoApproveOption(policy: AutoApprovePolicy, input: AutoApproveInput, roots: readonly string[], cwd = roots[0] ?? '/'): Promise<PermissionOption | undefined> {
  if (policy !== 'reads' || !autoApprovableKinds.has(input.toolKind)) return undefined;
  const option = input.options.find((o) => o.kind === 'allow_once');
  if (!option) return undefined;
  // a read by its content only: no command, nothing to write, no path outside the roots; a text that is not a JSON
  // object or list (a command line?) is not read as one
  const raw = typeof input.rawInput === 'string' ? parseJson(input.rawInput) : input.rawInput;
  if (typeof raw === 'string' && raw.trim() !== '') return undefined;
  const inspected = inspectRawInput(raw);
  if (inspected.command || writesByContent({ rawInput: raw, locations: input.locations, content: input.content ?? [] })) return undefined;
  // locations must be absolute as ACP requires (a relative one asks); rawInput's paths are the tool's own, against cwd
  const named = [...input.locations.map((l) => l.path), ...inspected.paths.map((p) => (p.startsWith('~') ? p : path.resolve(cwd, p)))];
  if (named.length === 0) return locationFreeKinds.has(input.toolKind) ? option : undefined;
  if (named.some((p) => p.startsWith('~'))) return undefined;
  return (await allInside(named, roots)) ? option : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** True when every path is absolute and, symlinks resolved, inside one of the roots (fails closed). */
async function allInside(paths: readonly string[], roots: readonly string[]): Promise<boolean> {
  const real = await realRoots(roots);
  if (real.length === 0) return false;
  for (const p of paths) {
    let normalized: string;
    try {
      normalized = normalizeAgentPath(p);
    } catch {
      return false;
    }
    if (!isInside(await resolveRealPath(normalized), real)) return false;
  }
  return true;
}
