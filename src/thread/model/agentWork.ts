/**
 * What an ACP v2 agent keeps running after its turn (docs/acp-v2.md "Background work"): the complete list of the
 * last `state_update` that reported one (`background`), each item a terminal or a tool call the thread already
 * has. Live state, like the notices: not in the transcript store, since a reopened session's work is the agent's
 * to report again. Pure: no vscode, no node.
 */

/** One piece of background work: a terminal, a tool call, or a kind this client does not know (`id` may be empty). */
export interface BackgroundItem {
  readonly type: string;
  readonly id: string;
}

export class AgentWork {
  private _background: readonly BackgroundItem[] = [];

  /** `changed` is called after every change (the thread fires its `background` state change). */
  constructor(private readonly changed: () => void) {}

  /** The work the agent last listed, in its order. */
  get background(): readonly BackgroundItem[] {
    return this._background;
  }

  /** The agent's new list (complete: it replaces the last); an unchanged list fires nothing. */
  setBackground(items: readonly BackgroundItem[]): void {
    if (items.length === this._background.length && items.every((x, i) => x.type === this._background[i]?.type && x.id === this._background[i]?.id)) return;
    this._background = [...items];
    this.changed();
  }
}
