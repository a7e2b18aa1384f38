// @ts-check
// The baseline client's webview (bundled by the end-to-end bench into naive.js): appends each posted chunk to
// the message's text and, once per animation frame, with the same markdown-it + DOMPurify configuration as
// Switchboard (webview/views/markdown.ts), following the end:
//   - body[data-mode="rerender"]: renders the whole message again (quadratic: a naive client);
//   - body[data-mode="incremental"]: renders the blocks completed since the last frame (up to the last blank
//     line outside a code fence) and appends them, and renders the open last block again (a minimal
//     incremental client: nothing else, no virtualization, no batching on the host).
import { renderMarkdown } from '../../../../webview/views/markdown';

// @ts-expect-error the webview API
const vscode = acquireVsCodeApi();
const transcript = /** @type {HTMLElement} */ (document.getElementById('transcript'));
const input = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-testid="composer-input"]'));
let body = /** @type {HTMLElement | undefined} */ (undefined);
let text = '';
const incremental = document.body.dataset.mode === 'incremental';
/** incremental: how much of `text` is rendered into appended blocks (it always ends outside a code fence) */
let committed = 0;
/** incremental: the open last block */
let tail = /** @type {HTMLElement | undefined} */ (undefined);
let frame = 0;
let received = 0;
let stopped = false;
/**
 * How many chunks the last render showed (the bench projects a capped run from it); `stop()` ends a capped
 * run: the rest of the stream is dropped, so the quadratic re-rendering no longer starves the workbench.
 */
const stats = { rendered: 0, stop: () => { stopped = true; if (frame) cancelAnimationFrame(frame); frame = 0; body?.replaceChildren(); } };
Object.assign(globalThis, { __naive: stats });

input.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || e.shiftKey) return;
  e.preventDefault();
  const message = document.createElement('div');
  message.setAttribute('data-testid', 'agent-message');
  body = document.createElement('div');
  body.className = 'markdown';
  message.append(body);
  transcript.append(message);
  text = '';
  committed = 0;
  tail = document.createElement('div');
  body.append(tail);
  received = 0;
  vscode.postMessage({ type: 'send', text: input.value });
  input.value = '';
});

/** The end of the last complete block in `text` after `committed` (a blank line outside a fence), or -1. */
const lastBoundary = () => {
  let fence = false;
  let boundary = -1;
  let at = committed;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) break;
    const line = text.slice(at, nl);
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    else if (!fence && line.trim() === '' && at > committed) boundary = nl + 1;
    at = nl + 1;
  }
  return boundary;
};

const render = () => {
  frame = 0;
  if (incremental && body && tail) {
    const boundary = lastBoundary();
    if (boundary > committed) {
      const block = document.createElement('div');
      block.append(renderMarkdown(text.slice(committed, boundary)));
      tail.before(block);
      committed = boundary;
    }
    tail.replaceChildren(renderMarkdown(text.slice(committed)));
  } else body?.replaceChildren(renderMarkdown(text));
  stats.rendered = received;
  transcript.scrollTop = transcript.scrollHeight;
};

window.addEventListener('message', (e) => {
  if (typeof e.data?.text !== 'string' || stopped) return;
  text += e.data.text;
  received++;
  frame ||= requestAnimationFrame(render);
});
