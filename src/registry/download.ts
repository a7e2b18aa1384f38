/**
 * Streams an HTTPS download to a file while hashing it: bounded size, cancellable, redirects followed by
 * hand so each hop is checked (plain http only to 127.0.0.1/localhost, for tests).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { typedError } from '../shared/typedError';

/** Default download cap: 500 MB. */
export const defaultMaxDownloadBytes = 500 * 1024 * 1024;

/** Why a download failed. */
export type DownloadErrorReason = 'insecureUrl' | 'http' | 'network' | 'tooLarge' | 'cancelled' | 'tooManyRedirects';

/** A download failed; the partial file was removed. */
export class DownloadError extends typedError('DownloadError') {

  constructor(readonly reason: DownloadErrorReason, message: string) {
    super(message);
  }
}

/** True for https URLs, and for http on the loopback host names (tests). */
export function isAllowedDownloadUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]');
}

/** Options of {@link downloadToFile}. */
export interface DownloadOptions {
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
  /** Called as bytes arrive; `total` is the Content-Length when known. */
  readonly onProgress?: (received: number, total: number | undefined) => void;
  /** The fetch to use (tests); default the global one. */
  readonly fetch?: typeof fetch;
}

/** Fetches `url` following at most 5 redirects, each checked with {@link isAllowedDownloadUrl}. */
export async function fetchChecked(url: string, init: RequestInit, fetchImpl: typeof fetch = fetch): Promise<Response> {
  let current = url;
  for (let hop = 0; hop <= 5; hop++) {
    if (!isAllowedDownloadUrl(current)) throw new DownloadError('insecureUrl', `refusing to download from ${current}: only https:// URLs are allowed`);
    let res: Response;
    try {
      res = await fetchImpl(current, { ...init, redirect: 'manual' });
    } catch (ex) {
      if (init.signal?.aborted) throw new DownloadError('cancelled', 'the download was cancelled');
      const cause = ex instanceof Error && ex.cause instanceof Error ? `: ${ex.cause.message}` : '';
      throw new DownloadError('network', `could not reach ${new URL(current).host}${cause} (are you offline?)`);
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
      await res.body?.cancel();
      current = new URL(location, current).toString();
      continue;
    }
    return res;
  }
  throw new DownloadError('tooManyRedirects', `too many redirects downloading ${url}`);
}

/**
 * Downloads `url` into `file` (created or replaced) and returns the SHA-256 (hex) of the bytes written.
 * On failure the file is removed.
 * @throws DownloadError
 */
export async function downloadToFile(url: string, file: string, options: DownloadOptions = {}): Promise<{ sha256: string; bytes: number }> {
  const maxBytes = options.maxBytes ?? defaultMaxDownloadBytes;
  const res = await fetchChecked(url, options.signal ? { signal: options.signal } : {}, options.fetch);
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new DownloadError('http', `downloading ${url} failed: HTTP ${res.status} ${res.statusText}`);
  }
  const length = Number(res.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  if (total !== undefined && total > maxBytes) {
    await res.body.cancel();
    throw new DownloadError('tooLarge', `the download is ${Math.round(total / 1048576)} MB, more than the ${Math.round(maxBytes / 1048576)} MB allowed`);
  }
  const hash = createHash('sha256');
  let received = 0;
  const source = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>, options.signal ? { signal: options.signal } : {});
  source.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) source.destroy(new DownloadError('tooLarge', `the download is larger than the ${Math.round(maxBytes / 1048576)} MB allowed`));
    hash.update(chunk);
    options.onProgress?.(received, total);
  });
  try {
    await pipeline(source, fs.createWriteStream(file));
  } catch (ex) {
    await fs.promises.rm(file, { force: true });
    if (DownloadError.is(ex)) throw ex;
    if (options.signal?.aborted) throw new DownloadError('cancelled', 'the download was cancelled');
    throw new DownloadError('network', `downloading ${url} failed: ${ex instanceof Error ? ex.message : String(ex)}`);
  }
  return { sha256: hash.digest('hex'), bytes: received };
}
