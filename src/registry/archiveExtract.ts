/**
 * Unpacks a downloaded agent archive (.tar.gz/.tgz/.tar or .zip) into an empty folder with well-kept
 * libraries (`tar` by isaacs, `yauzl`). Every entry is listed and checked first ({@link checkArchiveEntries}),
 * so a bad archive is refused before anything is written; a failure midway removes the folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import * as yauzl from 'yauzl';
import { ArchiveError, type ArchiveEntryInfo, checkArchiveEntries, safeRelativePath } from './archivePaths';

/** Archive formats we unpack. */
export type ArchiveFormat = 'tar' | 'zip';

/** Default cap on what one archive may unpack to: 2 GB. */
export const defaultMaxUnpackedBytes = 2 * 1024 ** 3;

/** The format from the file's first bytes (gzip or ustar → tar, PK → zip). */
export async function detectArchiveFormat(file: string): Promise<ArchiveFormat | undefined> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buf, 0, 512, 0);
    if (bytesRead >= 4 && buf.readUInt32BE(0) === 0x504b0304) return 'zip';
    if (bytesRead >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return 'tar';
    if (bytesRead >= 262 && buf.toString('latin1', 257, 262) === 'ustar') return 'tar';
    return undefined;
  } finally {
    await handle.close();
  }
}

function tarKind(type: tar.ReadEntry['type']): ArchiveEntryInfo['kind'] {
  switch (type) {
    case 'File': case 'OldFile': case 'ContiguousFile': return 'file';
    case 'Directory': case 'GNUDumpDir': return 'directory';
    case 'SymbolicLink': return 'symlink';
    case 'Link': return 'hardlink';
    default: return 'other';
  }
}

async function listTar(file: string): Promise<ArchiveEntryInfo[]> {
  const entries: ArchiveEntryInfo[] = [];
  try {
    await tar.t({
      file,
      strict: true,
      onReadEntry: (e) => {
        entries.push({ name: e.path, kind: tarKind(e.type), size: e.size ?? 0, ...(e.linkpath !== undefined ? { linkTarget: e.linkpath } : {}) });
      },
    });
  } catch (ex) {
    throw new ArchiveError('corrupt', `the archive could not be read: ${ex instanceof Error ? ex.message : String(ex)}`);
  }
  return entries;
}

type ZipFile = yauzl.ZipFile;
type ZipEntry = yauzl.Entry;

const openZip = (file: string) => new Promise<ZipFile>((resolve, reject) => {
  yauzl.open(file, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, autoClose: false }, (err, zip) => (err ? reject(err) : resolve(zip)));
});

/** Walks every central-directory entry; yauzl itself refuses absolute and `..` names (reported as unsafe). */
async function forEachZipEntry(zip: ZipFile, visit: (entry: ZipEntry) => Promise<void>): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: ZipEntry) => {
      visit(entry).then(() => zip.readEntry(), reject);
    });
    zip.readEntry();
  });
}

function zipMode(entry: ZipEntry): number {
  return (entry.externalFileAttributes >>> 16) & 0xffff;
}

function zipKind(entry: ZipEntry): ArchiveEntryInfo['kind'] {
  const type = zipMode(entry) & 0o170000;
  if (entry.fileName.endsWith('/') || type === 0o040000) return 'directory';
  if (type === 0o120000) return 'symlink';
  return type === 0 || type === 0o100000 ? 'file' : 'other';
}

async function readZipText(zip: ZipFile, entry: ZipEntry): Promise<string> {
  if (entry.uncompressedSize > 4096) throw new ArchiveError('unsafeLink', `the archive link "${entry.fileName}" is too long`);
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function zipError(ex: unknown): ArchiveError {
  if (ArchiveError.is(ex)) return ex;
  const message = ex instanceof Error ? ex.message : String(ex);
  // yauzl's own name checks: "absolute path: …", "invalid relative path: …", "invalid characters in fileName: …"
  if (/absolute path|invalid relative path|invalid characters/.test(message)) {
    return new ArchiveError('unsafePath', `the archive has an entry that would be written outside the install folder (${message}): the archive was refused`);
  }
  return new ArchiveError('corrupt', `the archive could not be read: ${message}`);
}

async function listZip(file: string): Promise<ArchiveEntryInfo[]> {
  const entries: ArchiveEntryInfo[] = [];
  let zip: ZipFile | undefined;
  try {
    zip = await openZip(file);
    const z = zip;
    await forEachZipEntry(z, async (e) => {
      const kind = zipKind(e);
      entries.push({ name: e.fileName, kind, size: e.uncompressedSize, ...(kind === 'symlink' ? { linkTarget: await readZipText(z, e) } : {}) });
    });
  } catch (ex) {
    throw zipError(ex);
  } finally {
    zip?.close();
  }
  return entries;
}

async function extractZip(file: string, dest: string): Promise<void> {
  const zip = await openZip(file);
  try {
    await forEachZipEntry(zip, async (e) => {
      const rel = safeRelativePath(e.fileName);
      if (rel === undefined) throw new ArchiveError('unsafePath', `unsafe entry "${e.fileName}"`);
      const target = path.join(dest, ...rel.split('/'));
      const kind = zipKind(e);
      if (kind === 'directory') return void (await fs.promises.mkdir(target, { recursive: true }));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      if (kind === 'symlink') return void (await fs.promises.symlink(await readZipText(zip, e), target));
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.openReadStream(e, (err, s) => (err ? reject(err) : resolve(s))));
      const mode = zipMode(e) & 0o777;
      await pipeline(stream, fs.createWriteStream(target, { flags: 'wx', mode: mode ? mode | 0o600 : 0o644 }));
    });
  } catch (ex) {
    throw zipError(ex);
  } finally {
    zip.close();
  }
}

/**
 * Lists, checks and unpacks `file` into `dest` (created; must not exist). On any failure `dest` is removed.
 * @throws ArchiveError unsafe path or link, unsupported entry or format, too large, corrupt
 */
export async function extractArchive(file: string, dest: string, maxUnpackedBytes = defaultMaxUnpackedBytes): Promise<void> {
  const format = await detectArchiveFormat(file);
  if (!format) throw new ArchiveError('unsupportedFormat', 'the download is not a .tar.gz, .tar or .zip archive');
  const entries = format === 'tar' ? await listTar(file) : await listZip(file);
  checkArchiveEntries(entries, maxUnpackedBytes);
  await fs.promises.mkdir(dest, { recursive: false });
  try {
    if (format === 'tar') {
      await tar.x({ file, cwd: dest, strict: true, preservePaths: false, preserveOwner: false });
    } else {
      await extractZip(file, dest);
    }
  } catch (ex) {
    await fs.promises.rm(dest, { recursive: true, force: true });
    if (ArchiveError.is(ex)) throw ex;
    throw new ArchiveError('corrupt', `the archive could not be unpacked: ${ex instanceof Error ? ex.message : String(ex)}`);
  }
}
