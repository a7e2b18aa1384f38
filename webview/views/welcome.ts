/**
 * The welcome of an empty chat, in place of the empty transcript until the first message exists: the agent's
 * name and what it can do (a line of small badges, src/thread/view/welcomeView.ts), its slash commands as
 * suggestions that put `/command ` into the composer, its recent sessions (title and relative time; Enter or
 * a click opens one) and the chat's keys. Compact, in the theme's colours, with codicons. Agent text (names,
 * commands, descriptions, titles) is set as text only. It never takes the focus: the composer keeps it
 * (composerFocus.ts); its buttons are reached with Tab and act on Enter or Space like any button.
 */
import '../styles/welcome.css';
import type { SendWith } from '../../src/shared/composerModel';
import type { ThreadStateView } from '../../src/shared/viewModel';
import { relativeTime } from '../../src/shared/welcomeModel';
import type { WelcomeView as WelcomeData } from '../../src/shared/welcomeModel';
import { welcomeKeyHints } from '../lib/welcomeKeys';
import { h } from './dom';
import { visibleText } from './visibleText';

const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);

/** What the welcome's suggestions do. */
export interface WelcomeActions {
  /** Puts `/name ` into the composer and focuses it. */
  useCommand(name: string): void;
  /** Opens a recent session of the same agent in its chat. */
  openSession(sessionId: string): void;
}

/** Whether the chat shows the welcome: the session is known and its transcript is empty. */
export function showsWelcome(state: ThreadStateView | undefined, entryCount: number): boolean {
  return state !== undefined && entryCount === 0;
}

/** The welcome element; it renders again only when what it shows changed. */
export class Welcome {
  readonly element: HTMLElement;
  private data: WelcomeData | undefined;
  private state: ThreadStateView | undefined;
  private sendWith: SendWith = 'enter';
  private shown = false;
  private rendered = '';

  constructor(private readonly actions: WelcomeActions) {
    this.element = h('section', { class: 'welcome', 'data-testid': 'welcome', 'aria-label': 'Welcome' });
    this.element.hidden = true;
  }

  /** The host's welcome data (agent, capabilities, recent sessions). */
  setData(data: WelcomeData): void {
    this.data = data;
    this.update();
  }

  /** The session's state (its commands) and whether the transcript is empty. */
  setState(state: ThreadStateView | undefined, entryCount: number): void {
    this.state = state;
    this.shown = showsWelcome(state, entryCount);
    this.update();
  }

  /** The composer's send key (`switchboard.chat.sendWith`). */
  setSendWith(sendWith: SendWith): void {
    this.sendWith = sendWith;
    this.update();
  }

  private update(): void {
    this.element.hidden = !this.shown;
    if (!this.shown) return;
    const key = JSON.stringify([this.data, this.state?.agentName, this.state?.commands, this.sendWith, Math.floor(Date.now() / 60_000)]);
    if (key === this.rendered) return;
    this.rendered = key;
    // a re-render keeps the keyboard where it was: on the same suggestion
    const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.welcome [data-key]')?.dataset.key;
    this.element.replaceChildren(...this.sections());
    if (focused) [...this.element.querySelectorAll<HTMLElement>('[data-key]')].find((el) => el.dataset.key === focused)?.focus();
  }

  private sections(): Node[] {
    const name = this.data?.agentName ?? this.state?.agentName ?? 'The agent';
    const out: Node[] = [
      h('div', { class: 'welcome-title' },
        h('span', { class: 'codicon codicon-hubot', 'aria-hidden': 'true' }),
        h('span', { class: 'welcome-agent', 'data-testid': 'welcome-agent' }, visibleText(name))),
    ];
    const caps = this.data?.capabilities ?? [];
    if (caps.length) {
      out.push(h('ul', { class: 'welcome-badges', 'aria-label': 'What the agent can do', 'data-testid': 'welcome-capabilities' },
        ...caps.map((c) => h('li', { class: 'welcome-badge', title: c.title, 'data-capability': c.id },
          h('span', { class: `codicon codicon-${c.icon}`, 'aria-hidden': 'true' }), c.label))));
    }
    const commands = this.state?.commands ?? [];
    if (commands.length) out.push(this.commandsSection(commands));
    const recent = this.data?.recent ?? [];
    if (recent.length) out.push(this.recentSection(recent));
    out.push(h('div', { class: 'welcome-keys', 'data-testid': 'welcome-keys' },
      ...welcomeKeyHints(this.sendWith, isMac).map((k) => h('span', { class: 'welcome-key' }, h('kbd', {}, k.key), ` ${k.does}`))));
    return out;
  }

  private commandsSection(commands: ThreadStateView['commands']): Node {
    return h('div', { class: 'welcome-section' },
      h('div', { class: 'welcome-heading', id: 'welcome-commands' }, 'Commands'),
      h('div', { class: 'welcome-commands', role: 'group', 'aria-labelledby': 'welcome-commands' },
        ...commands.map((c) => {
          const b = h('button', { type: 'button', class: 'welcome-command', 'data-testid': 'welcome-command', 'data-command': c.name, 'data-key': `command:${c.name}`, title: c.description }, visibleText(`/${c.name}`));
          b.addEventListener('click', () => this.actions.useCommand(c.name));
          return b;
        })));
  }

  private recentSection(recent: WelcomeData['recent']): Node {
    const now = Date.now();
    return h('div', { class: 'welcome-section' },
      h('div', { class: 'welcome-heading', id: 'welcome-recent' }, 'Recent sessions'),
      h('ul', { class: 'welcome-recent', 'aria-labelledby': 'welcome-recent' },
        ...recent.map((r) => {
          const b = h('button', { type: 'button', class: 'welcome-session', 'data-testid': 'welcome-session', 'data-session-id': r.sessionId, 'data-key': `session:${r.sessionId}` },
            h('span', { class: 'codicon codicon-comment-discussion', 'aria-hidden': 'true' }),
            h('span', { class: 'welcome-session-title' }, visibleText(r.title)),
            h('span', { class: 'welcome-session-time' }, relativeTime(r.updatedAt, now)));
          b.addEventListener('click', () => this.actions.openSession(r.sessionId));
          return h('li', {}, b);
        })));
  }
}
