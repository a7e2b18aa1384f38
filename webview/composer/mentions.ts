/**
 * @-mention of workspace files: typing `@` and a few letters asks the host for matching files
 * (`chat/files/search`, fuzzy-ranked there), shown in a keyboard-navigable list; picking one removes the
 * `@query` from the text and attaches the file as a chip (sent as `resource_link`, or as an embedded
 * `resource` when the agent accepts embedded context).
 */
import type { FileMatchView } from '../../src/shared/composerModel';
import { PopupList } from './popupList';
import { mentionQuery } from './queries';

const searchDelayMs = 60;

/** The file picker of the composer. */
export class MentionPicker {
  readonly list: PopupList;
  private matches: readonly FileMatchView[] = [];
  private requestId = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastQuery: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly search: (requestId: number, query: string) => void,
    private readonly onPick: (file: FileMatchView) => void,
  ) {
    this.list = new PopupList(input, 'Workspace files', 'mention-menu', (item) => this.pick(item.id));
  }

  /** Follows the text and caret: searches for the `@query`, or closes. */
  update(): void {
    const caret = this.input.selectionStart;
    const m = caret === this.input.selectionEnd ? mentionQuery(this.input.value, caret) : undefined;
    if (!m) {
      this.lastQuery = undefined;
      if (this.timer) clearTimeout(this.timer);
      this.list.hide();
      return;
    }
    if (m.query === this.lastQuery) return;
    this.lastQuery = m.query;
    if (!this.list.open) this.list.show([], 'Searching files…');
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.search(++this.requestId, m.query), searchDelayMs);
  }

  /** The host's answer; stale answers (an older request) are dropped. */
  onResults(requestId: number, matches: readonly FileMatchView[]): void {
    if (requestId !== this.requestId || this.lastQuery === undefined) return;
    this.matches = matches;
    this.list.show(matches.map((f) => ({ id: f.uri, label: f.name, ...(f.detail ? { detail: f.detail } : {}) })), 'No matching file');
  }

  /** Handles a key while the list is open. */
  handleKey(key: string): boolean {
    return this.list.handleKey(key);
  }

  private pick(uri: string): void {
    const file = this.matches.find((f) => f.uri === uri);
    const caret = this.input.selectionStart;
    const m = mentionQuery(this.input.value, caret);
    if (m) {
      const value = this.input.value;
      this.input.value = value.slice(0, m.start) + value.slice(caret);
      this.input.setSelectionRange(m.start, m.start);
    }
    this.lastQuery = undefined;
    this.list.hide();
    if (file) this.onPick(file);
  }
}
