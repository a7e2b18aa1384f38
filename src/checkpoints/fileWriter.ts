/**
 * How a restore writes the folder: the exact bytes of each file (with git's executable bit), symbolic links
 * as links, deletions, and the folders a deletion left empty. The default writes with node's `fs`; the
 * extension passes one that writes through VS Code's file service, so open editors show the restored text at
 * once (src/host/files/checkpointFiles.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The file operations of a restore (absolute paths). */
export interface FileWriter {
  /** Writes `bytes` to a file (creating its folders); `executable` sets or clears the owner's x bits. */
  writeFile(file: string, bytes: Uint8Array, executable: boolean): Promise<void>;
  /** Makes `file` a symbolic link to `target` (replacing what is there). */
  symlink(file: string, target: string): Promise<void>;
  /** Deletes a file or link (nothing when it is gone already). */
  remove(file: string): Promise<void>;
  /** Removes a folder when it is empty; true when it did. */
  removeEmptyDir(dir: string): Promise<boolean>;
}

/** A file's content in git's terms: a mode (`100644`, `100755`, `120000`) and the bytes. */
export interface FileVersion {
  readonly mode: string;
  readonly bytes: Uint8Array;
}

/** Writes with node's `fs`. */
export const nodeFileWriter: FileWriter = {
  async writeFile(file, bytes, executable) {
    await clearNonFile(file);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(file, bytes);
    await setExecutable(file, executable);
  },
  async symlink(file, target) {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.rm(file, { force: true });
    await fs.promises.symlink(target, file);
  },
  async remove(file) {
    await fs.promises.rm(file, { force: true });
  },
  async removeEmptyDir(dir) {
    try {
      await fs.promises.rmdir(dir);
      return true;
    } catch {
      return false;
    }
  },
};

/** A link where a file must go is removed first (writing would follow it); a folder stays and fails the write. */
export async function clearNonFile(file: string): Promise<void> {
  const st = await fs.promises.lstat(file).catch(() => undefined);
  if (st?.isSymbolicLink()) await fs.promises.rm(file, { force: true });
}

/** Sets or clears the x bits of a file as git records them (one bit: executable or not), keeping its other bits. */
export async function setExecutable(file: string, executable: boolean): Promise<void> {
  if (process.platform === 'win32') return;
  const st = await fs.promises.stat(file);
  const mode = executable ? st.mode | ((st.mode & 0o444) >> 2) : st.mode & ~0o111;
  if ((mode & 0o7777) !== (st.mode & 0o7777)) await fs.promises.chmod(file, mode & 0o7777);
}

/**
 * Writes one file version with `writer`: a link (mode 120000) as a link whose target is the bytes, else the
 * bytes, executable for 100755. Nested repositories (160000) are never written.
 */
export async function writeVersion(writer: FileWriter, file: string, v: FileVersion): Promise<void> {
  if (v.mode === '160000') return;
  if (v.mode === '120000') return writer.symlink(file, Buffer.from(v.bytes).toString('utf8'));
  return writer.writeFile(file, v.bytes, v.mode === '100755');
}
