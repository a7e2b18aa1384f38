/**
 * The prompt box: multi-line; Enter sends and Shift+Enter adds a line (the `switchboard.chat.sendWith`
 * setting swaps them); Esc or Stop cancels the turn. While the agent works, sent messages queue on the
 * host (shown above the box, editable, sent when the turn ends). ↑/↓ on the first/last line recall earlier
 * prompts; the draft is kept per session (webview state now, the host's copy across reloads). `/` opens
 * the slash-command menu, `@` the file picker; files, selections and images show as removable chips; the
 * footer holds the model and mode pickers and the settings popover. While a permission request is pending, a
 * hint line names the key that reaches it (Ctrl+Shift+A; a request never takes the focus from the composer
 * while the user types, webview/views/permissionFocus.ts). What it asks of the host goes through
 * {@link ChatActions}; what the host sends it (its state, file search results, attachments) comes through
 * main.ts.
 */
import './composer.css';
import { attachmentsMax } from '../../src/shared/composerModel';
import type { AttachmentView, ComposerStateView, DraftView, FileMatchView, PromptCapabilitiesView, SendWith } from '../../src/shared/composerModel';
import type { ThreadStateView } from '../../src/shared/viewModel';
import type { ProvidersView } from '../../src/shared/accountModel';
import type { ChatActions } from '../actions';
import { caretOnFirstLine, caretOnLastLine, isSendKey, isSendNowKey, reviewPermissionKeyLabel, sendKeyLabel } from '../lib/keymap';
import { button } from '../components/button';
import { h } from '../views/dom';
import { attachmentId, readImage, renderChips } from './attachments';
import { ConfigOptionsView } from './configOptions';
import { HistoryNavigator } from './historyNav';
import { MentionPicker } from './mentions';
import { QueueView } from './queueView';
import { SlashMenu } from './slashMenu';

const saveDelayMs = 300;

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** The composer at the bottom of the chat. */
export class Composer {
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  /** Send Now, beside Queue while the agent works, for an agent that takes messages then. */
  private readonly sendNowButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly imageButton: HTMLElement;
  private readonly chips: HTMLElement;
  private readonly status: HTMLElement;
  /** While a permission request is pending: the key that reaches it (webview/views/permissionFocus.ts). */
  private readonly permissionHint: HTMLElement;
  private readonly queue: QueueView;
  private readonly config: ConfigOptionsView;
  private readonly slash: SlashMenu;
  private readonly mentions: MentionPicker;
  private readonly history = new HistoryNavigator();
  private attachments: AttachmentView[] = [];
  private rev = 0;
  private hostStateSeen = false;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private sendWith: SendWith = 'enter';
  private caps: PromptCapabilitiesView = { image: false, audio: false, embeddedContext: false };
  private agentName = 'The agent';
  private busy = false;
  private steering = false;
  private usable = false;
  private lastState: ThreadStateView | undefined;
  private historyList: readonly string[] = [];

  constructor(root: HTMLElement, private readonly actions: ChatActions) {
    this.input = h('textarea', { 'data-testid': 'composer-input', rows: '3', 'aria-label': 'Message to the agent', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-multiline': 'true' });
    this.sendButton = h('button', { class: 'primary', 'data-testid': 'composer-send' }, 'Send');
    this.sendNowButton = h('button', { 'data-testid': 'composer-send-now', title: `Send now: into the agent's running turn (${isMac ? 'Option' : 'Alt'}+Enter)` }, 'Send Now');
    this.stopButton = h('button', { 'data-testid': 'composer-stop', title: 'Stop (Esc)' }, 'Stop');
    const filePicker = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp', multiple: '', hidden: '' });
    this.imageButton = button({ label: 'Attach an image', appearance: 'icon', icon: 'file-media', testId: 'composer-image', onClick: () => filePicker.click() });
    this.chips = h('div', { class: 'composer-attachments', 'data-testid': 'composer-attachments' });
    this.status = h('div', { class: 'composer-status', role: 'status', 'data-testid': 'composer-status' });
    this.permissionHint = h('div', { class: 'composer-hint composer-permission-hint', 'data-testid': 'permission-hint' },
      h('span', { class: 'codicon codicon-shield', 'aria-hidden': 'true' }),
      ` A permission request is waiting: press ${reviewPermissionKeyLabel(isMac)} to review it.`);
    this.permissionHint.hidden = true;
    this.queue = new QueueView({
      update: (id, text) => actions.updateQueuedPrompt(id, text),
      remove: (id) => actions.removeQueuedPrompt(id),
    });
    this.config = new ConfigOptionsView({
      setConfigOption: (configId, value) => actions.setConfigOption(configId, value),
      setMode: (modeId) => actions.setMode(modeId),
      setProvider: (providerId) => actions.setProvider(providerId),
      disableProvider: (providerId) => actions.disableProvider(providerId),
    });
    this.slash = new SlashMenu(this.input, () => this.changed(), () => this.submit(), () => sendKeyLabel(this.sendWith, isMac).send);
    this.mentions = new MentionPicker(this.input, (requestId, query) => actions.searchFiles(requestId, query), (file) => {
      this.addAttachment({ kind: 'file', id: attachmentId('file'), uri: file.uri, name: file.name });
      this.changed();
    });
    root.replaceChildren(
      this.queue.element, this.chips,
      h('div', { class: 'composer-box' }, this.slash.list.element, this.mentions.list.element, this.input),
      this.slash.hint, this.permissionHint, this.status,
      h('div', { class: 'composer-footer' }, this.config.element, this.imageButton, filePicker, h('span', { class: 'composer-spacer' }), this.stopButton, this.sendNowButton, this.sendButton),
    );
    this.wire(root, filePicker);
    this.restoreLocalDraft();
    this.setState(undefined);
  }

  /** The agent's model providers, in the settings popover (absent: it does not advertise `providers`). */
  setProviders(view: ProvidersView | undefined): void {
    this.config.renderProviders(view);
  }

  /** The host's answer to a file search (`@`). */
  searchResults(requestId: number, matches: readonly FileMatchView[]): void {
    this.mentions.onResults(requestId, matches);
  }

  /** The host attached something (Add Selection to Chat: a selection, or the whole file). */
  attach(attachment: AttachmentView): void {
    this.addAttachment(attachment);
    this.changed();
    this.input.focus();
  }

  /** A slash command picked outside the composer (the welcome): `/name ` goes into the prompt, which takes the focus. */
  insertCommand(name: string): void {
    const head = `/${name} `;
    this.input.value = head + this.input.value.replace(/^\/\S*\s*/, '');
    this.input.focus();
    this.input.setSelectionRange(head.length, head.length);
    this.changed();
    this.followCaret(); // the command's input hint
  }

  private wire(root: HTMLElement, filePicker: HTMLInputElement): void {
    this.input.addEventListener('keydown', (e) => this.onKeyDown(e));
    this.input.addEventListener('input', () => {
      this.history.reset();
      this.changed();
      this.followCaret();
    });
    this.input.addEventListener('click', () => this.followCaret());
    this.input.addEventListener('blur', () => { this.slash.list.hide(); this.mentions.list.hide(); });
    this.input.addEventListener('paste', (e) => {
      const files = [...(e.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
      if (!files.length) return;
      e.preventDefault();
      void this.addImages(files);
    });
    root.addEventListener('dragover', (e) => { if (e.dataTransfer) { e.preventDefault(); e.dataTransfer.dropEffect = 'copy'; } });
    root.addEventListener('drop', (e) => {
      const files = [...(e.dataTransfer?.files ?? [])].filter((f) => f.type.startsWith('image/'));
      if (!files.length) return;
      e.preventDefault();
      void this.addImages(files);
    });
    filePicker.addEventListener('change', () => {
      void this.addImages([...(filePicker.files ?? [])]);
      filePicker.value = '';
    });
    this.sendButton.addEventListener('click', () => this.submit());
    this.sendNowButton.addEventListener('click', () => this.submit(true));
    this.stopButton.addEventListener('click', () => this.actions.cancelTurn());
    window.addEventListener('pagehide', () => this.flushDraft());
  }

  /**
   * Follows the session: Send while idle (Queue while working), Stop while working, the config pickers.
   * `noSessionYet`: the page was opened while its agent starts (src/chatHost/startingChat.ts), and what is sent
   * waits for the session as while an agent is being started; the session's first state replaces this.
   */
  setState(state: ThreadStateView | undefined, noSessionYet = false): void {
    this.lastState = state;
    this.busy = state?.status === 'working' || state?.status === 'awaitingPermission';
    // while the agent is being started (a chat reopened at once from the store, a restart) what is sent waits too
    const starting = state?.status === 'starting' || noSessionYet;
    const queues = this.busy || starting;
    this.usable = state?.status === 'idle' || queues;
    if (state) this.agentName = state.agentName;
    this.sendButton.disabled = !this.usable;
    this.sendButton.textContent = queues ? 'Queue' : 'Send';
    const keys = sendKeyLabel(this.sendWith, isMac);
    this.sendButton.title = queues ? `Queue: sent when the agent ${starting ? 'is ready' : 'finishes'} (${keys.send})` : `Send (${keys.send})`;
    this.stopButton.hidden = !this.busy;
    this.sendNowButton.hidden = !(this.busy && this.steering);
    this.permissionHint.hidden = state?.status !== 'awaitingPermission';
    this.input.disabled = state === undefined ? !noSessionYet : state.status === 'disconnected' || state.status === 'error';
    this.input.placeholder = `Ask the agent… (${keys.send} to send, ${keys.newline} for a new line, / for commands, @ for files)`;
    this.slash.setCommands(state?.commands ?? []);
    this.config.render(state?.configOptions, state?.modes);
    this.updateImageButton();
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (this.slash.handleKey(e.key) || this.mentions.handleKey(e.key)) {
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (isSendKey(e, this.sendWith) || isSendNowKey(e)) {
      e.preventDefault();
      this.submit(isSendNowKey(e) && this.busy && this.steering);
    } else if (e.key === 'Escape' && this.busy) {
      e.preventDefault();
      this.actions.cancelTurn();
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      this.recall(e);
    }
  }

  /** ↑ on the first line recalls older prompts, ↓ on the last line newer ones (then the draft). */
  private recall(e: KeyboardEvent): void {
    const { value, selectionStart: start, selectionEnd: end } = this.input;
    const up = e.key === 'ArrowUp';
    if (up ? !caretOnFirstLine(value, start, end) : !caretOnLastLine(value, start, end)) return;
    if (!up && !this.history.recalling) return;
    const text = up ? this.history.previous(value) : this.history.next();
    if (text === undefined) return;
    e.preventDefault();
    this.input.value = text;
    const caret = up ? 0 : text.length;
    this.input.setSelectionRange(caret, caret);
    this.changed();
  }

  private followCaret(): void {
    this.slash.update();
    this.mentions.update();
  }

  /** Sends (queues while the agent works); `now`: Send Now, into the running turn. */
  private submit(now = false): void {
    const text = this.input.value;
    if ((!text.trim() && !this.attachments.length) || !this.usable) return;
    this.actions.sendPrompt(text.trim() ? text : '', this.attachments, now);
    this.input.value = '';
    this.attachments = [];
    this.renderChips();
    this.history.setHistory([...this.historyList, text]);
    this.slash.update();
    this.mentions.update();
    this.status.textContent = '';
    this.changed();
    this.flushDraft();
  }

  private addAttachment(a: AttachmentView): void {
    if (this.attachments.length >= attachmentsMax) {
      this.status.textContent = `At most ${attachmentsMax} attachments per message.`;
      return;
    }
    if (a.kind === 'file' && this.attachments.some((x) => x.kind === 'file' && x.uri === a.uri)) return;
    this.attachments = [...this.attachments, a];
    this.renderChips();
  }

  private async addImages(files: File[]): Promise<void> {
    if (!this.caps.image) {
      this.status.textContent = this.imageButton.title;
      return;
    }
    for (const file of files) {
      const result = await readImage(file);
      if (typeof result === 'string') this.status.textContent = result;
      else this.addAttachment(result);
    }
    this.changed();
  }

  private renderChips(): void {
    renderChips(this.chips, this.attachments, (id) => {
      this.attachments = this.attachments.filter((a) => a.id !== id);
      this.renderChips();
      this.changed();
      this.input.focus();
    });
  }

  private updateImageButton(): void {
    this.imageButton.toggleAttribute('disabled', !this.caps.image);
    this.imageButton.title = this.caps.image
      ? 'Attach an image (or paste or drop one into the message)'
      : `${this.agentName} does not accept images (its promptCapabilities.image is off), so images cannot be attached.`;
  }

  /** The text or attachments changed: keep the draft (webview state now, the host after a pause). */
  private changed(): void {
    this.rev += 1;
    const draft = this.draft();
    this.actions.keepDraftLocally(draft);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.flushDraft(), saveDelayMs);
  }

  private flushDraft(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.hostStateSeen) this.actions.saveDraft(this.draft());
  }

  private draft(): DraftView {
    return { text: this.input.value, attachments: this.attachments, rev: this.rev };
  }

  private restoreLocalDraft(): void {
    const local = this.actions.localDraft();
    if (local) this.loadDraft(local);
  }

  private loadDraft(d: DraftView): void {
    this.input.value = d.text;
    this.attachments = [...d.attachments];
    this.rev = d.rev;
    this.renderChips();
  }

  /** The host's state of the composer: queue, history, send key, capabilities, and its copy of the draft. */
  applyHostState(s: ComposerStateView): void {
    this.sendWith = s.sendWith;
    this.caps = s.capabilities;
    this.steering = s.steering === true;
    this.queue.render(s.queue);
    this.historyList = s.history;
    if (!this.history.recalling) this.history.setHistory(s.history);
    if (!this.hostStateSeen) {
      this.hostStateSeen = true;
      // the newer of the two copies wins: the webview's (edited since the last save) or the host's
      if (s.draft && s.draft.rev > this.rev) this.loadDraft(s.draft);
    }
    this.setState(this.lastState);
  }
}
