/**
 * Registry icons: fetched once, sanitized ({@link sanitizeSvg}), tinted for light and dark themes and kept in
 * global storage (`icons/`), so the picker shows them offline too.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fetchChecked } from './download';
import type { RegistryAgent } from './registrySchema';
import { sanitizeSvg, tintSvg } from './svgSanitizer';

/** The two theme variants of a cached icon (absolute file paths). */
export interface CachedIcon { readonly light: string; readonly dark: string }

const maxIconBytes = 64 * 1024;
// the foreground colours of VS Code's default light and dark themes
const lightColor = '#424242';
const darkColor = '#C5C5C5';

/** The icon cache in a folder. */
export class IconCache {
  constructor(readonly dir: string, private readonly fetchImpl: typeof fetch = fetch) {}

  /** The cached files of an agent's icon, if it was fetched before. */
  cached(agent: RegistryAgent, registryUrl: string): CachedIcon | undefined {
    const files = this.files(agent, registryUrl);
    return files && fs.existsSync(files.light) && fs.existsSync(files.dark) ? files : undefined;
  }

  /** The icon, fetched and sanitized when not cached; undefined when there is none or it is unusable. */
  async get(agent: RegistryAgent, registryUrl: string, signal?: AbortSignal): Promise<CachedIcon | undefined> {
    const files = this.files(agent, registryUrl);
    if (!files) return undefined;
    if (this.cached(agent, registryUrl)) return files;
    try {
      const res = await fetchChecked(files.url, signal ? { signal } : {}, this.fetchImpl);
      if (!res.ok) return void (await res.body?.cancel());
      const text = await res.text();
      const clean = text.length <= maxIconBytes ? sanitizeSvg(text) : undefined;
      if (!clean) return undefined;
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.writeFile(files.light, tintSvg(clean, lightColor));
      await fs.promises.writeFile(files.dark, tintSvg(clean, darkColor));
      return files;
    } catch {
      return undefined;
    }
  }

  private files(agent: RegistryAgent, registryUrl: string): (CachedIcon & { url: string }) | undefined {
    if (!agent.icon) return undefined;
    let url: string;
    try {
      url = new URL(agent.icon, registryUrl).toString();
    } catch {
      return undefined;
    }
    const key = `${agent.id}-${createHash('sha256').update(url).digest('hex').slice(0, 12)}`;
    return { url, light: path.join(this.dir, `${key}-light.svg`), dark: path.join(this.dir, `${key}-dark.svg`) };
  }
}
