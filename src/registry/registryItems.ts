/**
 * What the registry QuickPick shows for each agent (pure, so it is unit-tested): name, version, badges,
 * description, what gets installed and what signing in needs.
 */
import { describeDistribution, type PlatformTarget, platformTarget } from './distributionChoice';
import type { InstalledAgent } from './installedAgents';
import { authSummary, type RegistryAgent } from './registrySchema';
import { updateState, type UpdateState } from './versions';

/** One row of the picker, before VS Code types. */
export interface RegistryItem {
  readonly agent: RegistryAgent;
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly state: UpdateState;
}

const badges: Record<UpdateState, string> = {
  notInstalled: '',
  upToDate: '✓ installed',
  updateAvailable: '⬆ update available',
  pinned: '📌 pinned',
  newerInstalled: '✓ installed (newer)',
};

/** Rows for the registry picker, in registry order. */
export function registryItems(
  agents: readonly RegistryAgent[],
  installed: readonly InstalledAgent[],
  target: PlatformTarget | undefined = platformTarget(),
): RegistryItem[] {
  return agents.map((agent) => {
    const mine = installed.find((i) => i.id === agent.id);
    const state = updateState(mine, agent.version);
    const badge = badges[state];
    const installedNote = mine && mine.version !== agent.version ? ` (installed ${mine.version})` : '';
    const description = [`v${agent.version}${installedNote}`, badge].filter(Boolean).join('  ');
    const detail = [agent.description, describeDistribution(agent, target), authSummary(agent)].filter(Boolean).join(' · ');
    return { agent, label: agent.name, description, detail, state };
  });
}

/** "from <date>" for the offline notice. */
export function cachedNotice(fetchedAt: number, reason: string | undefined): string {
  const when = new Date(fetchedAt).toLocaleString();
  return `Showing the cached ACP Registry from ${when}${reason ? ` (${reason})` : ''}.`;
}
