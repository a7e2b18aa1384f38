/**
 * The chat webview: renders one session from a snapshot plus deltas, and sends the user's actions to the
 * host. Imports only src/shared (ARCHITECTURE.md 1.2).
 */
import './styles/chat.css';
import {
  CancelTurnCommand, DidChangeNotification, DidSnapshotNotification, isIpc, ReadyCommand, RequestSnapshotCommand,
  SendPromptCommand, ToggleFollowCommand,
} from '../src/shared/chatProtocol';
import type { DidChangeParams } from '../src/shared/chatProtocol';
import type { ThreadSnapshot } from '../src/shared/viewModel';
import { hostIpc } from './hostIpc';
import { ChatStore } from './store';
import { Composer } from './views/composer';
import { appendText, renderEntry } from './views/entries';
import { Header } from './views/header';
import { appendTerminalOutput, refreshTerminal } from './views/terminal';

const ipc = hostIpc();
const store = new ChatStore((reason) => ipc.post(RequestSnapshotCommand, { reason }));
const transcript = document.getElementById('transcript') as HTMLElement;
const header = new Header(document.getElementById('header') as HTMLElement, { toggleFollow: () => ipc.post(ToggleFollowCommand, {}) });
const composer = new Composer(document.getElementById('composer') as HTMLElement, {
  send: (text) => ipc.post(SendPromptCommand, { text }),
  cancel: () => ipc.post(CancelTurnCommand, {}),
});
const renderContext = { ipc, terminals: (id: string) => store.terminals.get(id) };
const nodes: HTMLElement[] = [];

function stickToBottom(run: () => void): void {
  const atBottom = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
  run();
  if (atBottom) transcript.scrollTop = transcript.scrollHeight;
}

function renderAt(index: number): void {
  const entry = store.entries[index];
  if (!entry) return;
  const node = renderEntry(entry, renderContext);
  const old = nodes[index];
  if (old) old.replaceWith(node);
  else transcript.append(node);
  nodes[index] = node;
  const dialog = node.querySelector<HTMLButtonElement>('[data-testid="permission-option"]');
  if (dialog && !old?.querySelector('[data-testid="permission-option"]')) dialog.focus();
}

store.subscribe((change) => stickToBottom(() => {
  switch (change.type) {
    case 'reset':
      transcript.replaceChildren();
      nodes.length = 0;
      store.entries.forEach((_, i) => renderAt(i));
      header.render(store.state);
      composer.setState(store.state);
      return;
    case 'append': {
      const node = nodes[change.index];
      if (node) appendText(node, change.text);
      return;
    }
    case 'entry': return renderAt(change.index);
    case 'terminal': return refreshTerminal(transcript, change.terminalId, store.terminals.get(change.terminalId));
    case 'terminalOutput':
      return appendTerminalOutput(transcript, change.terminalId, change.carry, change.text, store.terminals.get(change.terminalId));
    case 'state':
      header.render(store.state);
      composer.setState(store.state);
  }
}));

ipc.onMessage((msg) => {
  if (isIpc(DidSnapshotNotification, msg)) store.applySnapshot(msg.params as ThreadSnapshot);
  else if (isIpc(DidChangeNotification, msg)) store.applyChange(msg.params as DidChangeParams);
});
// the panel serializer's key (session, agent, cwd): kept in the webview state so a window reload restores the session
const restore = document.body.dataset.restore;
if (restore) ipc.setState({ ...(ipc.getState<Record<string, unknown>>() ?? {}), restore: JSON.parse(restore) as unknown });
ipc.post(ReadyCommand, {});
