/**
 * Installs, updates and uninstalls registry agents (https://agentclientprotocol.com/get-started/registry).
 * npx/uvx agents are recorded with their pinned package; binaries are downloaded to a staging folder, verified
 * (sha256, or the user confirms the computed hash), unpacked with path-traversal checks, made executable, and
 * only then renamed into `agents/<id>/<version>/`. A failure at any step leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, safeRelativePath } from './archivePaths';
import { chooseDistribution, type PlatformTarget, platformTarget } from './distributionChoice';
import { defaultMaxDownloadBytes, downloadToFile } from './download';
import type { InstalledAgent, InstalledAgents } from './installedAgents';
import type { RegistryAgent } from './registrySchema';
import { pinNpmPackage, pinUvxPackage } from './versions';
import { typedError } from '../shared/typedError';

/** Why an install failed. */
export type InstallErrorReason = 'noDistribution' | 'checksumMismatch' | 'notConfirmed' | 'badCommand' | 'notInstalled';

/** An install could not be completed; nothing was left on disk. */
export class InstallError extends typedError('InstallError') {

  constructor(readonly reason: InstallErrorReason, message: string) {
    super(message);
  }
}

/** The questions and reports of an install. */
export interface InstallOptions {
  /** The archive has no published sha256: show the computed one and ask. True installs. */
  readonly confirmUnverified: (agent: RegistryAgent, sha256: string, url: string) => Promise<boolean>;
  /** Progress text and, for downloads, the fraction done so far (0..1). */
  readonly onProgress?: (message: string, fraction?: number) => void;
  readonly signal?: AbortSignal;
  /** Keep the agent pinned (an update of a pinned agent by hand). */
  readonly pinned?: boolean;
}

/** Installs registry agents into an {@link InstalledAgents} manifest. */
export class AgentInstaller {
  constructor(
    readonly installed: InstalledAgents,
    private readonly options: { readonly fetch?: typeof fetch; readonly target?: PlatformTarget | undefined; readonly maxDownloadBytes?: number } = {},
  ) {}

  /**
   * Installs `agent` at its registry version (replacing an installed version of it on success).
   * @throws InstallError, DownloadError, ArchiveError
   */
  async install(agent: RegistryAgent, options: InstallOptions): Promise<InstalledAgent> {
    const target = 'target' in this.options ? this.options.target : platformTarget();
    const choice = chooseDistribution(agent, target);
    if (!choice) throw new InstallError('noDistribution', `${agent.name} has no build for ${target ?? `${process.platform}-${process.arch}`} and no npx or uvx package`);
    const base = {
      id: agent.id, name: agent.name, version: agent.version, description: agent.description,
      pinned: options.pinned ?? false, installedAt: Date.now(),
    };
    const previous = this.installed.get(agent.id);
    let record: InstalledAgent;
    if (choice.kind === 'binary') {
      record = { ...base, kind: 'binary', ...(await this.installBinary(agent, choice.target, choice.binary, options)) };
    } else {
      const pkg = choice.kind === 'npx' ? pinNpmPackage(choice.dist.package, agent.version) : pinUvxPackage(choice.dist.package, agent.version);
      record = { ...base, kind: choice.kind, package: pkg, args: [...choice.dist.args], env: { ...choice.dist.env } };
    }
    await this.installed.put(record);
    if (previous?.kind === 'binary' && previous.version !== record.version) await this.removeVersionDir(previous.id, previous.version);
    if (previous?.kind === 'binary' && record.kind !== 'binary') await this.removeAgentDir(previous.id);
    return record;
  }

  /** Removes an installed agent and its files. @throws InstallError reason `notInstalled` */
  async uninstall(id: string): Promise<void> {
    if (!this.installed.get(id)) throw new InstallError('notInstalled', `'${id}' is not installed`);
    await this.installed.remove(id);
    await this.removeAgentDir(id);
  }

  /** Pins (no updates offered) or unpins an installed agent. */
  async setPinned(id: string, pinned: boolean): Promise<InstalledAgent> {
    const a = this.installed.get(id);
    if (!a) throw new InstallError('notInstalled', `'${id}' is not installed`);
    const updated = { ...a, pinned };
    await this.installed.put(updated);
    return updated;
  }

  private async installBinary(
    agent: RegistryAgent,
    target: PlatformTarget,
    binary: { archive: string; cmd: string; args: string[]; env: Record<string, string>; sha256?: string | undefined },
    options: InstallOptions,
  ): Promise<Pick<InstalledAgent, 'cmd' | 'target' | 'sha256' | 'args' | 'env'>> {
    const cmd = safeRelativePath(binary.cmd);
    if (cmd === undefined) throw new InstallError('badCommand', `${agent.name}: the registry's "cmd" ${binary.cmd} points outside the install folder`);
    const staging = path.join(this.installed.agentsDir, '.staging', `${agent.id}-${randomBytes(6).toString('hex')}`);
    await fs.promises.mkdir(staging, { recursive: true });
    try {
      const archive = path.join(staging, 'download');
      options.onProgress?.(`Downloading ${agent.name} ${agent.version}…`, 0);
      const { sha256 } = await downloadToFile(binary.archive, archive, {
        maxBytes: this.options.maxDownloadBytes ?? defaultMaxDownloadBytes,
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (received, total) => options.onProgress?.(`Downloading ${agent.name} ${agent.version}: ${(received / 1048576).toFixed(1)} MB${total ? ` of ${(total / 1048576).toFixed(1)} MB` : ''}`, total ? received / total : undefined),
      });
      if (binary.sha256 !== undefined && binary.sha256 !== sha256) {
        throw new InstallError('checksumMismatch', `${agent.name}: the download's SHA-256 ${sha256} does not match the registry's ${binary.sha256}; nothing was installed`);
      }
      if (binary.sha256 === undefined && !(await options.confirmUnverified(agent, sha256, binary.archive))) {
        throw new InstallError('notConfirmed', `${agent.name} was not installed: its download could not be verified and you declined it`);
      }
      options.onProgress?.(`Unpacking ${agent.name}…`);
      const unpacked = path.join(staging, 'unpacked');
      // tar and zip support (about a fifth of the extension) is loaded on the first install, not at activation
      const { extractArchive } = await import('./archiveExtract.js');
      await extractArchive(archive, unpacked);
      const cmdPath = path.join(unpacked, ...cmd.split('/'));
      await checkCommand(agent, unpacked, cmdPath, binary.cmd);
      if (process.platform !== 'win32') await fs.promises.chmod(cmdPath, 0o755);
      const finalDir = this.installed.installDir(agent.id, agent.version);
      await fs.promises.mkdir(path.dirname(finalDir), { recursive: true });
      await fs.promises.rm(finalDir, { recursive: true, force: true });
      await fs.promises.rename(unpacked, finalDir);
      return { cmd, target, sha256, args: [...binary.args], env: { ...binary.env } };
    } finally {
      await fs.promises.rm(staging, { recursive: true, force: true });
    }
  }

  private async removeVersionDir(id: string, version: string): Promise<void> {
    await fs.promises.rm(this.installed.installDir(id, version), { recursive: true, force: true });
  }

  private async removeAgentDir(id: string): Promise<void> {
    if (safeRelativePath(id) !== id) return;
    await fs.promises.rm(path.join(this.installed.agentsDir, id), { recursive: true, force: true });
  }
}

async function checkCommand(agent: RegistryAgent, root: string, cmdPath: string, cmd: string): Promise<void> {
  let real: string;
  try {
    real = await fs.promises.realpath(cmdPath);
  } catch {
    throw new InstallError('badCommand', `${agent.name}: the archive has no "${cmd}" (the registry's "cmd"); nothing was installed`);
  }
  if (!isInside(await fs.promises.realpath(root), real) || !(await fs.promises.stat(real)).isFile()) {
    throw new InstallError('badCommand', `${agent.name}: "${cmd}" is not a file inside the archive; nothing was installed`);
  }
}
