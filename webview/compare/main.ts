/**
 * The compare view of "Ask Several Agents…" (src/shared/compareView.ts): a small webview program of its own,
 * bundled as dist/webview/compare.js (esbuild.mjs). It draws each `{type: 'view', view}` the host posts,
 * ignores anything that does not have that shape (viewShape.ts), and posts the user's actions. The last view
 * and the open details are kept with `setState`, so a panel shown again, or restored after a reload (whose
 * serializer reads `state.view.id`: src/workbench/worktrees/comparePanel.ts), draws at once.
 * Outside webview/ it imports only src/shared (docs/architecture.md#layers).
 */
import './compare.css';
import type { CompareAction, CompareView } from '../../src/shared/compareView';
import { ComparePage } from './comparePage';
import { compareViewOf, viewOfMessage } from './viewShape';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What the page keeps across hide and reload. */
interface SavedState {
  readonly view?: CompareView;
  readonly open?: readonly string[];
}

const api = acquireVsCodeApi();
const saved = api.getState() as Partial<SavedState> | undefined;
let view = compareViewOf(saved?.view);
const open = new Set(Array.isArray(saved?.open) ? saved.open.filter((id): id is string => typeof id === 'string') : []);

const save = (): void => {
  const state: SavedState = { ...(view ? { view } : {}), open: page.openRuns() };
  api.setState(state);
};
const post = (action: CompareAction): void => api.postMessage(action);
const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'));
const page = new ComparePage(root, post, save, open);
page.render(view);

addEventListener('message', (e: MessageEvent<unknown>) => {
  const next = viewOfMessage(e.data);
  if (!next) return;
  view = next;
  page.render(view);
  save();
});
post({ type: 'ready' });
