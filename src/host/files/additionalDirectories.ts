/**
 * The `additionalDirectories` a session is opened with (https://agentclientprotocol.com/protocol/session-setup,
 * docs/sessions.md "Session roots"): the other folders of a multi-root workspace, then the folders of the
 * `switchboard.additionalDirectories` setting. Entries are absolute and normalized; exact duplicates and
 * entries equal to `cwd` are dropped, as the protocol asks. No `vscode` import: unit-tested in plain Node.
 */
import * as os from 'node:os';
import * as path from 'node:path';

/** The setting that adds folders to every session (user settings; ignored from an untrusted workspace). */
export const additionalDirectoriesSetting = 'additionalDirectories';

/** The directories to send, and what was wrong with the setting's entries (one message each). */
export interface AdditionalDirectories {
  readonly directories: string[];
  readonly problems: string[];
}

/** Same path on this platform (case-insensitive on Windows and macOS). */
function samePath(a: string, b: string, caseInsensitive: boolean): boolean {
  return caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * The additional roots of a session in `cwd`.
 * @param workspaceFolders the workspace's folders on disk, in order
 * @param configured the setting's raw value (untrusted shape)
 * @param exists whether a directory exists (a missing one is left out and reported)
 */
export function additionalDirectoriesFor(
  cwd: string,
  workspaceFolders: readonly string[],
  configured: unknown,
  exists: (dir: string) => boolean,
  caseInsensitive = process.platform === 'win32' || process.platform === 'darwin',
): AdditionalDirectories {
  const problems: string[] = [];
  const fromSetting: string[] = [];
  if (configured !== undefined && configured !== null) {
    if (!Array.isArray(configured)) problems.push(`switchboard.${additionalDirectoriesSetting} must be a list of folder paths`);
    else {
      for (const entry of configured as unknown[]) {
        if (typeof entry !== 'string' || !entry.trim()) {
          problems.push(`switchboard.${additionalDirectoriesSetting}: ${JSON.stringify(entry)} is not a folder path`);
          continue;
        }
        const expanded = entry === '~' || entry.startsWith('~/') ? path.join(os.homedir(), entry.slice(1)) : entry;
        if (!path.isAbsolute(expanded)) problems.push(`switchboard.${additionalDirectoriesSetting}: '${entry}' is not an absolute path`);
        else if (!exists(path.resolve(expanded))) problems.push(`switchboard.${additionalDirectoriesSetting}: the folder '${entry}' does not exist`);
        else fromSetting.push(path.resolve(expanded));
      }
    }
  }
  const directories: string[] = [];
  const root = path.resolve(cwd);
  for (const dir of [...workspaceFolders.map((f) => path.resolve(f)), ...fromSetting]) {
    if (samePath(dir, root, caseInsensitive) || directories.some((d) => samePath(d, dir, caseInsensitive))) continue;
    directories.push(dir);
  }
  return { directories, problems };
}
