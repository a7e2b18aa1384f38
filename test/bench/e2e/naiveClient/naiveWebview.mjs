// @ts-check
// The naive client's webview (bundled by the end-to-end bench into naive.js): appends each posted chunk to
// the message's text and renders the whole message again once per animation frame, with the same
// markdown-it + DOMPurify configuration as Switchboard (webview/views/markdown.ts), following the end.
import { renderMarkdown } from '../../../../webview/views/markdown';

// @ts-expect-error the webview API
const vscode = acquireVsCodeApi();
const transcript = /** @type {HTMLElement} */ (document.getElementById('transcript'));
const input = /** @type {HTMLTextAreaElement} */ (document.querySelector('[data-testid="composer-input"]'));
let body = /** @type {HTMLElement | undefined} */ (undefined);
let text = '';
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
  received = 0;
  vscode.postMessage({ type: 'send', text: input.value });
  input.value = '';
});

const render = () => {
  frame = 0;
  body?.replaceChildren(renderMarkdown(text));
  stats.rendered = received;
  transcript.scrollTop = transcript.scrollHeight;
};

window.addEventListener('message', (e) => {
  if (typeof e.data?.text !== 'string' || stopped) return;
  text += e.data.text;
  received++;
  frame ||= requestAnimationFrame(render);
});
