/**
 * Presets (`switchboard.presets`, docs/sessions.md "A home for all sessions"): a named agent + model + mode +
 * other config option values + MCP servers + an optional prompt prefix, to start a session ready to work. This
 * file is the pure part: the schema (zod; an invalid preset is reported and skipped, the others are used), which
 * presets apply (the user's always; the workspace's only in a trusted workspace, like `switchboard.agents`),
 * what a preset captures of a running session, and what a session needs changed to match a preset. No vscode.
 */
import * as z from 'zod/mini';
import type { SessionConfigOption, SessionMode } from '../acp/schema/types.gen';
import { approvalLevels, type ApprovalLevel } from '../shared/approvalLevel';

/** The setting (under `switchboard`). */
export const presetsSetting = 'presets';

const zPreset = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'a preset needs a name'), z.maxLength(100)),
  /** The agent's id in `switchboard.agents` (or an installed or the Demo agent). */
  agent: z.string().check(z.trim(), z.minLength(1, 'a preset needs an agent id')),
  /** The value of the agent's config option of category `model`. */
  model: z.optional(z.string().check(z.minLength(1))),
  /** The value of the config option of category `mode`, else a legacy mode id (`session/set_mode`). */
  mode: z.optional(z.string().check(z.minLength(1))),
  /** Other config options: option id → value. */
  configOptions: z.optional(z.record(z.string(), z.union([z.string(), z.boolean()]))),
  /** Names of servers of `switchboard.mcpServers` the session gets (absent: all of them). */
  mcpServers: z.optional(z.array(z.string())),
  /** Put before the first prompt of a session started from the preset. */
  promptPrefix: z.optional(z.string().check(z.maxLength(20_000))),
  /** The session's approval level (absent: the settings'). */
  approvals: z.optional(z.enum(approvalLevels)),
  /** Start the session in a git worktree of its own, on a new branch (docs/worktrees.md). */
  worktree: z.optional(z.boolean()),
});

/** A preset as the settings hold it. */
export type Preset = z.output<typeof zPreset>;

/** Where a preset comes from. */
export type PresetScope = 'user' | 'workspace';

/** A preset that applies, with where it comes from. */
export type ScopedPreset = Preset & { readonly scope: PresetScope };

/** Validates the setting's value: the valid presets, and what is wrong with the others (each said once). */
export function parsePresets(raw: unknown): { presets: Preset[]; errors: string[] } {
  if (raw === undefined || raw === null) return { presets: [], errors: [] };
  if (!Array.isArray(raw)) return { presets: [], errors: ['switchboard.presets must be an array of presets'] };
  const presets: Preset[] = [];
  const errors: string[] = [];
  raw.forEach((value, i) => {
    const parsed = zPreset.safeParse(value);
    if (!parsed.success) {
      errors.push(`switchboard.presets[${i}] is not a valid preset: ${parsed.error.issues.map((x) => `${x.path.join('.') || 'preset'}: ${x.message}`).join('; ')}`);
      return;
    }
    if (presets.some((p) => p.name === parsed.data.name)) errors.push(`switchboard.presets[${i}]: the name "${parsed.data.name}" is used twice; the first one is kept`);
    else presets.push(parsed.data);
  });
  return { presets, errors };
}

/** What `inspect('presets')` reports. */
export interface PresetsInspection {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * The presets that apply: the user's, then (only when the workspace is trusted) the workspace's and the folder's.
 * A workspace preset could start a program or send a prompt prefix the user never wrote, so an untrusted
 * workspace's are ignored (and counted, for a notice).
 */
export function effectivePresets(inspected: PresetsInspection | undefined, trusted: boolean): { presets: ScopedPreset[]; errors: string[]; ignored: number } {
  const user = parsePresets(inspected?.globalValue);
  const ws = [parsePresets(inspected?.workspaceValue), parsePresets(inspected?.workspaceFolderValue)];
  const fromWorkspace = ws.flatMap((w) => w.presets);
  if (!trusted) return { presets: user.presets.map((p) => ({ ...p, scope: 'user' })), errors: user.errors, ignored: fromWorkspace.length };
  return {
    presets: [...user.presets.map((p): ScopedPreset => ({ ...p, scope: 'user' })), ...fromWorkspace.map((p): ScopedPreset => ({ ...p, scope: 'workspace' }))],
    errors: [...user.errors, ...ws.flatMap((w) => w.errors)],
    ignored: 0,
  };
}

/** What a running session's settings are, as a preset keeps them (without its name); `approvals`: the level the user chose for it. */
export function capturePreset(agent: string, options: readonly SessionConfigOption[], currentModeId: string | undefined, approvals?: ApprovalLevel): Omit<Preset, 'name'> {
  const model = options.find((o) => o.category === 'model' && o.type === 'select');
  const mode = options.find((o) => o.category === 'mode' && o.type === 'select');
  const others: Record<string, string | boolean> = {};
  for (const o of options) if (o !== model && o !== mode) others[o.id] = o.currentValue;
  const modeValue = mode ? mode.currentValue : currentModeId;
  return {
    agent,
    ...(model ? { model: String(model.currentValue) } : {}),
    ...(modeValue !== undefined ? { mode: String(modeValue) } : {}),
    ...(Object.keys(others).length ? { configOptions: others } : {}),
    ...(approvals ? { approvals } : {}),
  };
}

/** One change a session needs to match a preset, or why it cannot. */
export type PresetStep =
  | { readonly kind: 'config'; readonly configId: string; readonly value: string | boolean }
  | { readonly kind: 'mode'; readonly modeId: string }
  | { readonly kind: 'unavailable'; readonly message: string };

/**
 * The changes that make a new session match `preset`, in order (model, mode, then the other options): only those
 * that differ from what the session has, and only values the agent offers.
 */
export function presetSteps(preset: Preset, options: readonly SessionConfigOption[], modes: readonly SessionMode[], currentModeId: string | undefined): PresetStep[] {
  const steps: PresetStep[] = [];
  const set = (option: SessionConfigOption | undefined, value: string | boolean, what: string) => {
    if (!option) return steps.push({ kind: 'unavailable', message: `the agent has no ${what} option` });
    if (option.currentValue === value) return;
    if (option.type === 'boolean' ? typeof value !== 'boolean' : !selectValues(option).includes(String(value))) {
      return steps.push({ kind: 'unavailable', message: `the agent does not offer ${JSON.stringify(value)} for ${option.name}` });
    }
    steps.push({ kind: 'config', configId: option.id, value });
  };
  if (preset.model !== undefined) set(options.find((o) => o.category === 'model'), preset.model, 'model');
  if (preset.mode !== undefined) {
    const option = options.find((o) => o.category === 'mode');
    if (option) set(option, preset.mode, 'mode');
    else if (!modes.some((m) => m.id === preset.mode)) steps.push({ kind: 'unavailable', message: `the agent has no mode "${preset.mode}"` });
    else if (currentModeId !== preset.mode) steps.push({ kind: 'mode', modeId: preset.mode });
  }
  for (const [id, value] of Object.entries(preset.configOptions ?? {})) set(options.find((o) => o.id === id), value, JSON.stringify(id));
  return steps;
}

/** The values a select option offers (flat or in groups). */
function selectValues(option: SessionConfigOption): string[] {
  if (option.type !== 'select') return [];
  // flat choices, or groups of them (the schema allows either list)
  const items = option.options as ReadonlyArray<{ value: string } | { group: string; options: { value: string }[] }>;
  return items.flatMap((o) => ('group' in o ? o.options.map((x) => x.value) : [o.value]));
}
