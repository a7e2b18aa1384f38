/**
 * The `switchboard.permissions.autoApprove` decision (no vscode import: unit-tested in plain Node).
 * `reads` answers `allow_once` for the read-only tool kinds read, search, think and fetch when every location
 * is inside the session's roots (clients MAY auto-allow according to user settings,
 * https://agentclientprotocol.com/protocol/tool-calls).
 */
import type { PermissionOption, ToolKind } from '../../acp/schema/types.gen';
import { isInside, normalizeAgentPath, realRoots, resolveRealPath } from '../files/pathPolicy';

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
}

/** Reads the setting value leniently: anything but `reads` is `never`. */
export function toAutoApprovePolicy(value: unknown): AutoApprovePolicy {
  return value === 'reads' ? 'reads' : 'never';
}

/**
 * The option to pick without asking, or undefined to ask the user.
 * @param roots the session's roots (cwd and additionalDirectories), absolute
 */
export async function autoApproveOption(policy: AutoApprovePolicy, input: AutoApproveInput, roots: readonly string[]): Promise<PermissionOption | undefined> {
  if (policy !== 'reads' || !autoApprovableKinds.has(input.toolKind)) return undefined;
  const option = input.options.find((o) => o.kind === 'allow_once');
  if (!option) return undefined;
  if (input.locations.length === 0) return locationFreeKinds.has(input.toolKind) ? option : undefined;
  return (await allInside(input.locations.map((l) => l.path), roots)) ? option : undefined;
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
