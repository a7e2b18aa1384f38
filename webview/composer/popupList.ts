/**
 * A keyboard-navigable suggestion list for the composer (the slash-command menu and the @-mention file
 * picker): a `role=listbox` whose active option the textarea points to with `aria-activedescendant`, so
 * screen readers follow ↑/↓ while the typing focus stays in the text box.
 */
import { h } from '../views/dom';

/** One row of the list. */
export interface PopupItem {
  readonly id: string;
  readonly label: string;
  /** Shown after the label (an input hint, a folder). */
  readonly detail?: string;
  /** Shown under the label. */
  readonly description?: string;
}

let nextListId = 0;

/** A listbox popup bound to a combobox textarea. */
export class PopupList {
  readonly element: HTMLElement;
  private items: readonly PopupItem[] = [];
  private active = 0;
  private readonly listId = `popup-${++nextListId}`;

  /**
   * `onPick` gets the key that picked the row (a click: undefined); `onActive` follows the highlighted row (the
   * slash menu says what Enter will do with it).
   */
  constructor(
    private readonly input: HTMLTextAreaElement, label: string, testId: string,
    private readonly onPick: (item: PopupItem, key?: 'Enter' | 'Tab') => void,
    private readonly onActive?: (item: PopupItem | undefined) => void,
  ) {
    this.element = h('ul', { class: 'popup-list', role: 'listbox', id: this.listId, 'aria-label': label, 'data-testid': testId });
    this.element.hidden = true;
    this.element.addEventListener('mousedown', (e) => e.preventDefault()); // keep the focus in the text box
    this.element.addEventListener('click', (e) => {
      const li = (e.target as HTMLElement).closest<HTMLElement>('[role="option"]');
      const index = li ? Number(li.dataset.index) : -1;
      if (index >= 0 && this.items[index]) this.onPick(this.items[index]);
    });
  }

  /** True while the list is shown. */
  get open(): boolean {
    return !this.element.hidden;
  }

  /** Shows `items` (an empty list shows `empty` as a hint, or hides when there is none). */
  show(items: readonly PopupItem[], empty?: string): void {
    this.items = items;
    this.active = 0;
    if (!items.length && !empty) return this.hide();
    const rows = items.map((item, i) => h('li', {
      id: `${this.listId}-${i}`, role: 'option', class: 'popup-item', 'data-index': String(i), 'data-testid': 'popup-item', 'data-value': item.id, 'aria-selected': 'false',
    },
    h('span', { class: 'popup-label' }, item.label),
    item.detail ? h('span', { class: 'popup-detail' }, item.detail) : undefined,
    item.description ? h('div', { class: 'popup-description' }, item.description) : undefined));
    this.element.replaceChildren(...(rows.length ? rows : [h('li', { class: 'popup-empty', role: 'presentation' }, empty ?? '')]));
    this.element.hidden = false;
    this.input.setAttribute('aria-controls', this.listId);
    this.input.setAttribute('aria-expanded', 'true');
    this.highlight();
  }

  /** Hides the list. */
  hide(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.items = [];
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
    this.onActive?.(undefined);
  }

  /**
   * Handles a key while open: ↑/↓ move, Enter/Tab pick, Esc closes. True when the key was used (the
   * caller then prevents its default).
   */
  handleKey(key: string): boolean {
    if (!this.open) return false;
    switch (key) {
      case 'ArrowDown': return this.move(1);
      case 'ArrowUp': return this.move(-1);
      case 'Enter':
      case 'Tab': {
        const item = this.items[this.active];
        if (!item) return key === 'Enter' ? false : (this.hide(), false);
        this.onPick(item, key);
        return true;
      }
      case 'Escape': this.hide(); return true;
      default: return false;
    }
  }

  private move(delta: number): boolean {
    if (!this.items.length) return true;
    this.active = (this.active + delta + this.items.length) % this.items.length;
    this.highlight();
    return true;
  }

  private highlight(): void {
    const rows = this.element.querySelectorAll<HTMLElement>('[role="option"]');
    rows.forEach((row, i) => row.setAttribute('aria-selected', String(i === this.active)));
    const activeRow = rows[this.active];
    this.onActive?.(this.items[this.active]);
    if (activeRow) {
      this.input.setAttribute('aria-activedescendant', activeRow.id);
      activeRow.scrollIntoView({ block: 'nearest' });
    } else {
      this.input.removeAttribute('aria-activedescendant');
    }
  }
}
