/**
 * A collapsible JSON block of a tool-call card (its raw input, the rest of its raw output): VS Code's disclosure
 * look (a chevron and a muted label, collapsed by default) on a real button with `aria-expanded`, so Enter/Space
 * open it; the JSON sits as text in an editor-font block. Which blocks the user opened is kept across re-renders.
 */
import '@vscode/codicons/dist/codicon.css';
import '../styles/cards.css';
import { formatChars } from '../../src/shared/terminalTail';
import { h } from './dom';
import { outputNote } from './outputNote';

/** Blocks the user opened, by key (entry id and which block). */
const openBlocks = new Set<string>();

/** What one disclosure shows. */
export interface JsonDisclosure {
  /** Unique in the chat: the entry id and which block (kept open across re-renders by it). */
  readonly key: string;
  readonly label: string;
  readonly json: string;
  /** Characters of the JSON left out by the host's cap. */
  readonly droppedChars?: number;
  /** `data-testid` of the block; its toggle gets `<testId>-toggle`. */
  readonly testId: string;
  /** Open full output, offered when the host left part of the JSON out. */
  readonly openAll?: () => void;
}

/** The disclosure: a toggle button and the JSON, hidden until opened. */
export function jsonDisclosureNode(d: JsonDisclosure): HTMLElement {
  const bodyId = `json-${d.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const chevron = h('span', { class: 'codicon codicon-chevron-right', 'aria-hidden': 'true' });
  const toggle = h('button', { type: 'button', class: 'tool-raw-toggle', 'data-testid': `${d.testId}-toggle`, 'aria-expanded': 'false', 'aria-controls': bodyId },
    chevron, h('span', { class: 'tool-raw-label' }, d.label));
  const more = d.droppedChars ? `\n… ${formatChars(d.droppedChars)} more not shown` : '';
  const body = h('pre', { class: 'tool-raw-json', id: bodyId, tabindex: '0' }, d.json + more);
  const openAll = d.droppedChars && d.openAll ? outputNote('', d.openAll, `${d.testId}-omitted`) : undefined;
  const show = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    chevron.className = `codicon codicon-chevron-${open ? 'down' : 'right'}`;
    body.hidden = !open;
    if (openAll) openAll.hidden = !open;
    if (open) openBlocks.add(d.key);
    else openBlocks.delete(d.key);
  };
  show(openBlocks.has(d.key));
  toggle.addEventListener('click', () => show(toggle.getAttribute('aria-expanded') !== 'true'));
  return h('div', { class: 'tool-raw', 'data-testid': d.testId }, toggle, body, openAll);
}
