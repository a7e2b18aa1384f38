// The render benchmark's naive baseline, bundled for the browser by page.mjs: what a simple chat does (and
// what other chat clients do while streaming). On every chunk the whole message is rendered again
// from its full text, with the same markdown-it + DOMPurify configuration as the webview
// (webview/views/markdown.ts), and replaces the message's DOM. It reads the same wire messages.
import { renderMarkdown } from '../../../webview/views/markdown';

const transcript = /** @type {HTMLElement} */ (document.getElementById('transcript'));
const message = document.createElement('div');
message.className = 'entry agent';
message.setAttribute('data-testid', 'agent-message');
const body = document.createElement('div');
body.className = 'markdown';
message.append(body);
transcript.append(message);
let text = '';

window.addEventListener('message', (e) => {
  const msg = e.data;
  if (msg?.method !== 'chat/thread/didChange') return;
  for (const d of msg.params?.deltas ?? []) {
    if (d.op !== 'append' || d.index !== 0) continue;
    text += d.text ?? '';
    body.replaceChildren(renderMarkdown(text));
  }
});
