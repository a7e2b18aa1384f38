/**
 * Projects session config options and legacy modes into the view model (pure). Options of a type this
 * client does not know are dropped: the agent keeps its default for them
 * (https://agentclientprotocol.com/protocol/session-config-options). Legacy modes are shown only when no
 * config option has category `mode`, which supersedes them (https://agentclientprotocol.com/protocol/session-modes).
 */
import type { SessionConfigOption, SessionMode } from '../../acp/schema/types.gen';
import type { ConfigChoiceView, ConfigOptionView, ModesView } from '../../shared/viewModel';

type SelectChoice = { value: string; name: string; description?: string | null };

function choice(o: SelectChoice): ConfigChoiceView {
  return { value: o.value, name: o.name, ...(o.description ? { description: o.description } : {}) };
}

/** One config option as the chat shows it; undefined for an unknown type. */
export function configOptionToView(o: SessionConfigOption): ConfigOptionView | undefined {
  const common = {
    id: o.id, name: o.name,
    ...(o.description ? { description: o.description } : {}),
    ...(o.category ? { category: o.category } : {}),
  };
  if (o.type === 'boolean') return { type: 'boolean', ...common, currentValue: o.currentValue };
  if (o.type !== 'select') return undefined;
  const items = o.options as ReadonlyArray<SelectChoice | { group: string; name: string; options: SelectChoice[] }>;
  const flat: ConfigChoiceView[] = [];
  const groups: { name?: string; options: ConfigChoiceView[] }[] = [];
  for (const item of items) {
    if ('group' in item) groups.push({ name: item.name, options: item.options.map(choice) });
    else flat.push(choice(item));
  }
  if (flat.length) groups.unshift({ options: flat });
  return { type: 'select', ...common, currentValue: o.currentValue, groups };
}

/** Every config option the chat can show, in the agent's order. */
export function configOptionsToView(options: readonly SessionConfigOption[]): ConfigOptionView[] {
  return options.flatMap((o) => {
    const v = configOptionToView(o);
    return v ? [v] : [];
  });
}

/** The legacy modes, or undefined when there are none or a config option of category `mode` replaces them. */
export function modesToView(options: readonly SessionConfigOption[], available: readonly SessionMode[], currentModeId: string | undefined): ModesView | undefined {
  if (!available.length || currentModeId === undefined) return undefined;
  if (options.some((o) => o.category === 'mode')) return undefined;
  const choices = available.map((m) => ({ value: m.id, name: m.name, ...(m.description ? { description: m.description } : {}) }));
  // a current mode the agent did not list shows as its id, not as a blank picker
  if (!available.some((m) => m.id === currentModeId)) choices.push({ value: currentModeId, name: currentModeId });
  return { currentModeId, available: choices };
}
