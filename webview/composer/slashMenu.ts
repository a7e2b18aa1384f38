/**
 * The slash-command menu: typing `/` at the start of the prompt lists the agent's commands
 * (`available_commands_update`, https://agentclientprotocol.com/protocol/slash-commands) filtered as you type,
 * with their description and input hint. ↑/↓ move, Esc closes. Enter runs a command that takes no input (one
 * without `input` in `available_commands_update`) at once; Enter on a command that takes input, or Tab, inserts
 * `/name ` and the hint line says what to type. While the menu is open the hint line says what Enter does. The
 * command is sent as plain text `/name args`, as the protocol asks: agents recognise it in the prompt.
 */
import type { ThreadStateView } from '../../src/shared/viewModel';
import { h } from '../views/dom';
import { PopupList } from './popupList';
import { filterCommands, runsOnEnter, slashQuery } from './queries';

type Command = ThreadStateView['commands'][number];

/** The slash-command menu of the composer. */
export class SlashMenu {
  readonly list: PopupList;
  /** The input hint of the chosen command, shown until something is typed after it. */
  readonly hint: HTMLElement;
  private commands: readonly Command[] = [];

  /** The command highlighted in the open menu. */
  private active: string | undefined;

  /**
   * `onInsert`: the text changed; `onRun`: send the prompt (a command without input picked with Enter);
   * `sendKey`: the name of the key that sends ("Enter", "Ctrl+Enter").
   */
  constructor(
    private readonly input: HTMLTextAreaElement, private readonly onInsert: () => void,
    private readonly onRun: () => void, private readonly sendKey: () => string,
  ) {
    this.list = new PopupList(input, 'Slash commands', 'slash-menu', (item, key) => this.pick(item.id, key), (item) => {
      this.active = item?.id;
      this.updateHint();
    });
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

  private pick(name: string, key: 'Enter' | 'Tab' | undefined): void {
    const value = this.input.value;
    const caret = this.input.selectionStart;
    const after = value.slice(caret).replace(/^\S*/, '').replace(/^\s*/, '');
    const command = this.commands.find((c) => c.name === name);
    if (key === 'Enter' && command && runsOnEnter(command, after)) {
      this.input.value = `/${name}`;
      this.list.hide();
      this.onInsert();
      this.onRun();
      return;
    }
    const head = `/${name} `;
    this.input.value = head + after;
    this.input.setSelectionRange(head.length, head.length);
    this.list.hide();
    this.updateHint();
    this.onInsert();
  }

  /** In the open menu: what Enter does with the highlighted command; after `/name `: the input it takes. */
  private updateHint(): void {
    if (this.list.open) {
      const command = this.commands.find((c) => c.name === this.active);
      this.hint.hidden = !command;
      this.hint.textContent = !command ? '' : command.hint
        ? `Enter: /${command.name}, then type ${command.hint}`
        : `Enter runs /${command.name}`;
      return;
    }
    const m = /^\/(\S+)\s*$/.exec(this.input.value);
    const command = m ? this.commands.find((c) => c.name === m[1]) : undefined;
    this.hint.hidden = !command?.hint;
    this.hint.textContent = command?.hint ? `Type ${command.hint} after /${command.name}, then ${this.sendKey()} to send` : '';
  }
}
