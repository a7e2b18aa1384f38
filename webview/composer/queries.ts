/** Pure text queries of the composer (no DOM): the `/command` and the `@file` being typed before the caret. */
import { fuzzyFilter } from '../../src/shared/fuzzyMatch';

/** A command of the slash menu (as in ThreadStateView['commands']). */
export interface CommandLike {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
}

/** The `/name` being typed: the whole text before the caret, when it is one slash word. */
export function slashQuery(value: string, caret: number): string | undefined {
  const m = /^\/(\S*)$/.exec(value.slice(0, caret));
  return m ? m[1] : undefined;
}

/** The commands matching a query: prefix matches first, then fuzzy ones. */
export function filterCommands<C extends CommandLike>(commands: readonly C[], query: string): C[] {
  const q = query.toLowerCase();
  const prefix = commands.filter((c) => c.name.toLowerCase().startsWith(q));
  const rest = fuzzyFilter(query, commands.filter((c) => !prefix.includes(c)), (c) => c.name);
  return [...prefix, ...rest];
}

/** The `@query` being typed before the caret (at the start or after a space), or undefined. */
export function mentionQuery(value: string, caret: number): { query: string; start: number } | undefined {
  const m = /(^|\s)@([^\s@]*)$/.exec(value.slice(0, caret));
  return m ? { query: m[2], start: caret - m[2].length - 1 } : undefined;
}

/**
 * Whether Enter on `command` in the slash menu sends it at once: it takes no input (no `input` hint in
 * `available_commands_update`) and nothing was typed after it.
 */
export function runsOnEnter(command: CommandLike, after: string): boolean {
  return command.hint === undefined && !after.trim();
}
