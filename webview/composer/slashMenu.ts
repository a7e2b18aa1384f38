/**
 * The slash-command menu: typing `/` at the start of the prompt lists the agent's commands
 * (`available_commands_update`, https://agentclientprotocol.com/protocol/slash-commands) filtered as you type,
 * with their description and input hint. ↑/↓ move, Enter or Tab insert `/name `, Esc closes. The command is
 * sent as plain text `/name args`, as the protocol asks: agents recognise it in the prompt.
 */
import type { ThreadStateView } from '../../src/shared/viewModel';
import { h } from '../views/dom';
import { PopupList } from './popupList';
import { filterCommands, slashQuery } from './queries';

type Command = ThreadStateView['commands'][number];

/** The slash-command menu of the composer. */
export class SlashMenu {
  readonly list: PopupList;
  /** The input hint of the chosen command, shown until something is typed after it. */
  readonly hint: HTMLElement;
  private commands: readonly Command[] = [];

  constructor(private readonly input: HTMLTextAreaElement, private readonly onInsert: () => void) {
    this.list = new PopupList(input, 'Slash commands', 'slash-menu', (item) => this.insert(item.id));
    this.hint = h('div', { class: 'composer-hint', 'data-testid': 'slash-hint', 'aria-live': 'polite' });
    this.hint.hidden = true;
  }

  /** The agent's commands changed (they may come at any time). */
  setCommands(commands: readonly Command[]): void {
    this.commands = commands;
    if (this.list.open) this.update();
  }

  /** Follows the text and caret: opens, filters or closes the menu, shows the hint. */
  update(): void {
    const value = this.input.value;
    const query = this.input.selectionStart === this.input.selectionEnd ? slashQuery(value, this.input.selectionStart) : undefined;
    if (query !== undefined && this.commands.length) {
      const matches = filterCommands(this.commands, query);
      this.list.show(matches.map((c) => ({ id: c.name, label: `/${c.name}`, ...(c.hint ? { detail: c.hint } : {}), description: c.description })),
        'No matching command');
    } else {
      this.list.hide();
    }
    this.updateHint();
  }

  /** Handles a key while the menu is open. */
  handleKey(key: string): boolean {
    return this.list.handleKey(key);
  }

  private insert(name: string): void {
    const value = this.input.value;
    const caret = this.input.selectionStart;
    const after = value.slice(caret).replace(/^\S*/, '').replace(/^\s*/, '');
    const head = `/${name} `;
    this.input.value = head + after;
    this.input.setSelectionRange(head.length, head.length);
    this.list.hide();
    this.updateHint();
    this.onInsert();
  }

  private updateHint(): void {
    const m = /^\/(\S+)\s*$/.exec(this.input.value);
    const command = m ? this.commands.find((c) => c.name === m[1]) : undefined;
    this.hint.hidden = !command?.hint || this.list.open;
    this.hint.textContent = command?.hint ? `/${command.name} ${command.hint}` : '';
  }
}
