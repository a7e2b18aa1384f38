/**
 * Fetches the registry with an on-disk cache: `If-None-Match` with the cached ETag (304 → the cache), and
 * the cached copy when the network fails (the result says so, and from when).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import { DownloadError, fetchChecked } from './download';
import { type ParsedRegistry, parseRegistryText, RegistryError } from './registrySchema';

/** Default registry URL (https://agentclientprotocol.com/get-started/registry). */
export const defaultRegistryUrl = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

/** Where the registry came from this time. */
export type RegistrySource = 'network' | 'notModified' | 'cache';

/** Result of {@link RegistryCache.load}. */
export interface LoadedRegistry extends ParsedRegistry {
  readonly source: RegistrySource;
  /** When the registry was last fetched from the network (ms since the epoch). */
  readonly fetchedAt: number;
  /** With source `cache`: why the network could not be used. */
  readonly offlineReason?: string;
}

const zMeta = z.object({ url: z.string(), etag: z.optional(z.string()), fetchedAt: z.number() });
type Meta = z.infer<typeof zMeta>;

/** Largest registry document accepted: 20 MB. */
const maxRegistryBytes = 20 * 1024 * 1024;

/** The registry cache in a folder (global storage `registry/`). */
export class RegistryCache {
  private readonly bodyFile: string;
  private readonly metaFile: string;

  constructor(readonly dir: string, private readonly fetchImpl: typeof fetch = fetch) {
    this.bodyFile = path.join(dir, 'registry.json');
    this.metaFile = path.join(dir, 'registry.meta.json');
  }

  /**
   * The registry at `url`: revalidated against the cache, or the cache itself when offline.
   * @throws RegistryError when neither the network nor the cache can answer
   */
  async load(url: string, signal?: AbortSignal): Promise<LoadedRegistry> {
    const cached = await this.readCache(url);
    let res: Response;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (cached?.meta.etag) headers['if-none-match'] = cached.meta.etag;
      res = await fetchChecked(url, { headers, ...(signal ? { signal } : {}) }, this.fetchImpl);
    } catch (ex) {
      const reason = ex instanceof Error ? ex.message : String(ex);
      if (cached && !DownloadError.is(ex, 'insecureUrl')) return { ...cached.parsed, source: 'cache', fetchedAt: cached.meta.fetchedAt, offlineReason: reason };
      throw new RegistryError('network', `could not fetch the ACP Registry: ${reason}`);
    }
    if (res.status === 304 && cached) {
      await this.writeMeta({ ...cached.meta, fetchedAt: Date.now() });
      return { ...cached.parsed, source: 'notModified', fetchedAt: Date.now() };
    }
    if (!res.ok) {
      await res.body?.cancel();
      const reason = `HTTP ${res.status} ${res.statusText}`;
      if (cached) return { ...cached.parsed, source: 'cache', fetchedAt: cached.meta.fetchedAt, offlineReason: reason };
      throw new RegistryError('http', `could not fetch the ACP Registry from ${url}: ${reason}`);
    }
    const text = await res.text();
    if (text.length > maxRegistryBytes) throw new RegistryError('notARegistry', `the registry at ${url} is larger than 20 MB`);
    const parsed = parseRegistryText(text);
    const etag = res.headers.get('etag') ?? undefined;
    await fs.promises.mkdir(this.dir, { recursive: true });
    await atomicWrite(this.bodyFile, text);
    const meta: Meta = { url, fetchedAt: Date.now(), ...(etag ? { etag } : {}) };
    await this.writeMeta(meta);
    return { ...parsed, source: 'network', fetchedAt: meta.fetchedAt };
  }

  private async readCache(url: string): Promise<{ meta: Meta; parsed: ParsedRegistry } | undefined> {
    try {
      const meta = zMeta.parse(JSON.parse(await fs.promises.readFile(this.metaFile, 'utf8')));
      if (meta.url !== url) return undefined;
      return { meta, parsed: parseRegistryText(await fs.promises.readFile(this.bodyFile, 'utf8')) };
    } catch {
      return undefined;
    }
  }

  private async writeMeta(meta: Meta): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    await atomicWrite(this.metaFile, JSON.stringify(meta));
  }
}

/** Writes a file through a temp file and a rename, so readers never see half of it. */
export async function atomicWrite(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await fs.promises.writeFile(tmp, data);
  await fs.promises.rename(tmp, file);
}
