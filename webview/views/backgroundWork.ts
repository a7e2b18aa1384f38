/**
 * The work an ACP v2 agent keeps running after its turn (docs/acp-v2.md "Background work"): a bar above the composer
 * with one row per terminal or tool call the agent listed in its last `state_update`, each with Stop when the agent
 * lets the user stop it. Agent text is shown as text (visibleText.ts); nothing here takes the focus. A row that ends
 * is announced politely.
 */
import '@vscode/codicons/dist/codicon.css';
import type { BackgroundWorkView } from '../../src/shared/viewModel';
import { h } from './dom';
import type { LiveAnnouncer } from './liveRegion';
import { stopButton } from './stopButton';
import { visibleText } from './visibleText';

const icons: Record<BackgroundWorkView['kind'], string> = { terminal: 'terminal', toolCall: 'tools', other: 'pulse' };

export class BackgroundWorkBar {
  readonly element = h('section', { class: 'background-work', 'aria-label': 'Running in the background', 'data-testid': 'background-work' });
  private shown: readonly BackgroundWorkView[] = [];

  constructor(private readonly stop: (kind: 'toolCall' | 'terminal', id: string) => void, private readonly live: Pick<LiveAnnouncer, 'say'>) {
    this.element.hidden = true;
  }

  /** Shows exactly `items`; an item that left the list is announced as ended. */
  render(items: readonly BackgroundWorkView[] = []): void {
    const same = items.length === this.shown.length && items.every((x, i) => JSON.stringify(x) === JSON.stringify(this.shown[i]));
    if (same) return;
    for (const gone of this.shown.filter((x) => !items.some((y) => y.kind === x.kind && y.id === x.id))) this.live.say(`Background work ended: ${gone.title}`);
    this.shown = items;
    this.element.hidden = items.length === 0;
    const rows = items.map((item) => h('li', { 'data-testid': 'background-item', 'data-kind': item.kind, 'data-id': item.id },
      h('span', { class: `codicon codicon-${icons[item.kind]}`, 'aria-hidden': 'true' }),
      h('span', { 'data-testid': 'background-title' }, visibleText(item.title)),
      item.cancellable && item.kind !== 'other' ? stopButton(`Stop ${item.title}`, 'background-stop', () => this.stop(item.kind as 'toolCall' | 'terminal', item.id)) : undefined));
    this.element.replaceChildren(h('div', {}, `Running in the background (${items.length})`), h('ul', {}, ...rows));
  }
}
