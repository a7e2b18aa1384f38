/**
 * Which distribution of a registry agent this machine installs (https://agentclientprotocol.com/get-started/registry):
 * the platform target key from `process.platform`/`process.arch`, and the kind to use.
 */
import type { BinaryTarget, PackageDistribution, RegistryAgent } from './registrySchema';

/** A registry platform target key, e.g. `linux-x86_64`. */
export type PlatformTarget = `${'darwin' | 'linux' | 'windows'}-${'aarch64' | 'x86_64'}`;

/**
 * The registry target for a Node platform/arch pair, or undefined when the registry has no builds for it
 * (e.g. freebsd, ia32).
 */
export function platformTarget(platform: string = process.platform, arch: string = process.arch): PlatformTarget | undefined {
  const os = ({ darwin: 'darwin', linux: 'linux', win32: 'windows' } as const)[platform as 'darwin' | 'linux' | 'win32'];
  const cpu = ({ arm64: 'aarch64', x64: 'x86_64' } as const)[arch as 'arm64' | 'x64'];
  return os && cpu ? `${os}-${cpu}` : undefined;
}

/** The chosen way to install an agent. */
export type DistributionChoice =
  | { readonly kind: 'binary'; readonly target: PlatformTarget; readonly binary: BinaryTarget }
  | { readonly kind: 'npx' | 'uvx'; readonly dist: PackageDistribution };

/**
 * Picks the distribution to install for `target` (see {@link platformTarget}). The seeds define no precedence, so we prefer a platform binary (no
 * runtime needed), then npx, then uvx. Undefined when nothing fits this machine.
 */
export function chooseDistribution(agent: RegistryAgent, target: PlatformTarget | undefined): DistributionChoice | undefined {
  const { binary, npx, uvx } = agent.distribution;
  const build = target && binary ? binary[target] : undefined;
  if (target && build) return { kind: 'binary', target, binary: build };
  if (npx) return { kind: 'npx', dist: npx };
  if (uvx) return { kind: 'uvx', dist: uvx };
  return undefined;
}

/** One line naming what would be installed, e.g. `npx @acme/agent@1.2.0` or `linux-x86_64 binary`. */
export function describeDistribution(agent: RegistryAgent, target: PlatformTarget | undefined): string {
  const choice = chooseDistribution(agent, target);
  if (!choice) {
    const targets = Object.keys(agent.distribution.binary ?? {}).join(', ');
    return `not available for ${target ?? `${process.platform}-${process.arch}`}${targets ? ` (builds: ${targets})` : ''}`;
  }
  return choice.kind === 'binary' ? `${choice.target} binary` : `${choice.kind} ${choice.dist.package}`;
}
