/**
 * The chat webview's bootstrap: wires the host transport, the actions, the store, the transcript, the
 * composer and the header, and routes the host's messages to them. Outside webview/ it imports only
 * src/shared (docs/architecture.md#layers); how the parts fit: docs/chat.md.
 */
import './styles/chat.css';
import {
  DidAddAttachmentNotification, DidChangeAccountNotification, DidChangeChangedFilesNotification, DidChangeComposerNotification,
  DidChangeThreadNotification, DidChangeWelcomeNotification, DidLoadEntriesNotification, DidRequestFocusNotification,
  DidSearchFilesNotification, DidSnapshotThreadNotification,
} from '../src/shared/chatProtocol';
import { chatActions } from './actions';
import { Composer } from './composer/composer';
import { hostIpc } from './hostIpc';
import { chatInbox } from './inbox';
import { ChatStore } from './store';
import { followTranscript } from './transcript/scrollEvents';
import { pageSchedulerHost, TranscriptView } from './transcript/transcriptView';
import { BackgroundWorkBar } from './views/backgroundWork';
import { AgentNoticesView } from './views/agentNotices';
import { ChangedFilesBar } from './views/changedFiles';
import { Header } from './views/header';
import { LiveAnnouncer } from './views/liveRegion';
import { installMarkdownActions, setSegmentKeeper, warmUp } from './views/markdown';
import { PermissionFocus } from './views/permissionFocus';
import { focusComposerOnEntry } from './views/composerFocus';
import { Welcome } from './views/welcome';
import { installMessageActions } from './views/messageActions';
import { TranscriptFocus } from './transcript/transcriptFocus';
import { Freezer } from './transcript/freezer';
// last: its narrow-width rules override the others in a side bar
import './styles/narrow.css';

const ipc = hostIpc();
const actions = chatActions(ipc);
const store = new ChatStore((reason) => actions.requestSnapshot(reason));
const transcript = document.getElementById('transcript') as HTMLElement;
const header = new Header(document.getElementById('header') as HTMLElement, actions);
const composer = new Composer(document.getElementById('composer') as HTMLElement, actions);
const live = new LiveAnnouncer(document.getElementById('live') ?? document.body.appendChild(document.createElement('div')));
live.element.id = 'live';
live.element.setAttribute('data-testid', 'live-region');
const composerInput = (): HTMLElement | null => document.querySelector<HTMLElement>('[data-testid="composer-input"]');
const changedFiles = new ChangedFilesBar(actions, () => composerInput()?.focus());
document.getElementById('composer')?.before(changedFiles.element); // the bar sits right above the composer
/** Where the focus goes when a permission request arrives, and the key that reaches it (permissionFocus.ts). */
const permissionFocus = new PermissionFocus(transcript, live, composerInput);
installMarkdownActions(document.body, actions);
// the agent's live notices, above the composer (not part of the transcript)
const agentNotices = new AgentNoticesView((id) => actions.dismissNotice(id), live, () => composerInput()?.focus());
changedFiles.element.before(agentNotices.element); // the agent's notices above the changed-files bar
// an ACP v2 agent's background work, above the notices (views/backgroundWork.ts)
const backgroundWork = new BackgroundWorkBar((kind, id) => actions.stopWork(kind, id), live);
agentNotices.element.before(backgroundWork.element);
focusComposerOnEntry(composerInput);
// in place of the empty transcript until the first message exists
const welcome = new Welcome({ useCommand: (name) => composer.insertCommand(name), openSession: (id) => actions.openRecentSession(id) });
transcript.before(welcome.element);
installMessageActions(transcript, actions);
const follow = followTranscript(transcript, () => composerInput()?.focus());
// the parts of long answers far from the view are frozen: a bounded DOM (transcript/freezer.ts)
setSegmentKeeper(new Freezer(transcript, () => follow.stopFollowing()));

const view = new TranscriptView({
  root: transcript,
  store,
  context: { actions, terminals: (id) => store.terminals.get(id) },
  actions,
  live,
  permissionFocus,
  follow,
  focus: new TranscriptFocus(transcript, composerInput),
  renderState: (state) => {
    header.render(state);
    composer.setState(state);
    agentNotices.render(state?.notices);
    backgroundWork.render(state?.background);
  },
  host: pageSchedulerHost(),
});
store.subscribe((change) => view.changed(change));
store.subscribe(() => welcome.setState(store.state, store.entries.length));
document.addEventListener('visibilitychange', () => view.visibilityChanged());

/** Whether the host heard that a snapshot arrived: its frame is then the active one (actions.ts, `shown`). */
let shown = false;
// the host's notifications, each to the part it is for (inbox.ts: typed by the protocol's notification table)
chatInbox()
  .on(DidSnapshotThreadNotification, (snapshot) => {
    if (snapshot.restore && !restore) actions.rememberSession(snapshot.restore);
    starting?.remove();
    store.applySnapshot(snapshot);
    if (!shown) actions.shown();
    shown = true;
  })
  .on(DidChangeThreadNotification, (change) => store.applyChange(change))
  .on(DidLoadEntriesNotification, (older) => view.olderEntries(older))
  .on(DidChangeComposerNotification, (state) => {
    composer.applyHostState(state);
    welcome.setSendWith(state.sendWith);
  })
  .on(DidChangeWelcomeNotification, (data) => welcome.setData(data))
  .on(DidSearchFilesNotification, (found) => composer.searchResults(found.requestId, found.matches))
  .on(DidAddAttachmentNotification, (added) => composer.attach(added.attachment))
  .on(DidChangeChangedFilesNotification, (files) => changedFiles.render(files))
  .on(DidRequestFocusNotification, () => focusRequestWhenRendered())
  .on(DidChangeAccountNotification, (account) => {
    header.renderAccount(account);
    composer.setProviders(account.providers);
  })
  .listen(ipc);
/**
 * The user jumped here to answer a request (ACP: Go to Next Session Waiting for You): the newest one gets the
 * focus, as with Ctrl+Shift+A, once the snapshot rendered it (a few frames at most).
 */
function focusRequestWhenRendered(frames = 60): void {
  if (permissionFocus.focusNewest() || frames <= 0) return;
  requestAnimationFrame(() => focusRequestWhenRendered(frames - 1));
}

// the session this panel shows survives a window reload in the webview's own state
const restore = document.body.dataset.restore;
if (restore) {
  try { actions.rememberSession(JSON.parse(restore)); } catch (error) { console.warn(`the panel's restore data is not JSON: ${String(error)}`); }
}
// a page without its session was opened while the agent starts (src/chatHost/startingChat.ts): its status says
// so until the first snapshot, and what is typed and sent meanwhile reaches the session once it exists
const starting = document.querySelector('.chat-starting');
if (starting) composer.setState(undefined, true);
actions.ready();
// compile the Markdown path before the first answer streams in
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => warmUp(), { timeout: 2000 });
else setTimeout(warmUp, 200);
