/**
 * The manifest of agents installed from the registry (`<global storage>/agents/manifest.json`) and how an
 * installed agent is launched: npx/uvx pinned to its version, a binary by the absolute path of its `cmd`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';
import type { AgentDefinition } from '../agents/agentDefinition';
import { atomicWrite } from './registryCache';

/** One installed agent, as stored in the manifest. */
export const zInstalledAgent = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z._default(z.string(), ''),
  kind: z.enum(['binary', 'npx', 'uvx']),
  /** npx/uvx: the pinned package spec, e.g. `@acme/agent@1.2.0`. */
  package: z.optional(z.string()),
  /** binary: the command relative to the install folder, `/`-separated. */
  cmd: z.optional(z.string()),
  /** binary: the platform target installed. */
  target: z.optional(z.string()),
  /** binary: SHA-256 of the archive that was verified. */
  sha256: z.optional(z.string()),
  args: z._default(z.array(z.string()), []),
  env: z._default(z.record(z.string(), z.string()), {}),
  pinned: z._default(z.boolean(), false),
  installedAt: z.number(),
});

/** An installed agent. */
export type InstalledAgent = z.infer<typeof zInstalledAgent>;

const zManifest = z.object({ version: z.literal(1), agents: z.array(z.unknown()) });

/** The manifest file, kept in memory (the agent picker reads it synchronously). */
export class InstalledAgents {
  /** Folder of all installed agents: `<storage>/agents`. */
  readonly agentsDir: string;
  private readonly file: string;
  private agents: InstalledAgent[] = [];
  private writing: Promise<void> = Promise.resolve();

  /** Reads the manifest in `storageDir` (a missing or broken one is an empty list; `onWarn` hears why). */
  constructor(storageDir: string, onWarn: (message: string) => void = () => undefined) {
    this.agentsDir = path.join(storageDir, 'agents');
    this.file = path.join(this.agentsDir, 'manifest.json');
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch (ex) {
      if ((ex as NodeJS.ErrnoException).code !== 'ENOENT') onWarn(`the installed-agents manifest ${this.file} is unreadable (${String(ex)}); starting empty`);
      return;
    }
    const doc = zManifest.safeParse(raw);
    if (!doc.success) {
      onWarn(`the installed-agents manifest ${this.file} is not valid; starting empty`);
      return;
    }
    for (const entry of doc.data.agents) {
      const a = zInstalledAgent.safeParse(entry);
      if (a.success) this.agents.push(a.data);
      else onWarn(`an installed-agents manifest entry was skipped: ${a.error.issues.map((i) => i.message).join('; ')}`);
    }
  }

  /** Every installed agent, in install order. */
  list(): readonly InstalledAgent[] {
    return this.agents;
  }

  /** One installed agent. */
  get(id: string): InstalledAgent | undefined {
    return this.agents.find((a) => a.id === id);
  }

  /** Adds or replaces an entry and writes the manifest. */
  async put(agent: InstalledAgent): Promise<void> {
    const i = this.agents.findIndex((a) => a.id === agent.id);
    this.agents = i === -1 ? [...this.agents, agent] : this.agents.map((a, j) => (j === i ? agent : a));
    await this.save();
  }

  /** Removes an entry and writes the manifest. */
  async remove(id: string): Promise<void> {
    this.agents = this.agents.filter((a) => a.id !== id);
    await this.save();
  }

  /** The folder a binary agent version is unpacked into. */
  installDir(id: string, version: string): string {
    return path.join(this.agentsDir, id, version);
  }

  /** How to launch an installed agent. */
  toDefinition(a: InstalledAgent): AgentDefinition {
    const base = { id: a.id, name: a.name, env: { ...a.env } };
    switch (a.kind) {
      case 'npx': return { ...base, command: 'npx', args: ['-y', a.package ?? a.id, ...a.args] };
      case 'uvx': return { ...base, command: 'uvx', args: [a.package ?? a.id, ...a.args] };
      case 'binary': return { ...base, command: path.join(this.installDir(a.id, a.version), ...(a.cmd ?? a.id).split('/')), args: [...a.args] };
    }
  }

  private save(): Promise<void> {
    const snapshot = JSON.stringify({ version: 1, agents: this.agents }, null, 2);
    this.writing = this.writing.catch(() => undefined).then(async () => {
      await fs.promises.mkdir(this.agentsDir, { recursive: true });
      await atomicWrite(this.file, snapshot);
    });
    return this.writing;
  }
}
