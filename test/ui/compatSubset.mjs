// @ts-check
// The UI tests that also run on the oldest VS Code we support (versions.json "subset": 1.100.3), and why.
// The newest version runs every test/ui/*.ui.mjs; the oldest runs these: the user's main path, and every
// test whose behaviour rests on a workbench API or surface that differs between the versions. What only the
// webview or the extension's own logic decides (Markdown, cards, the composer, session logic) does not
// depend on the VS Code version and runs once, on the newest. The integration layer has its own subset for
// the oldest version (test/integration/compatSubset.mjs: the extension host's APIs, activation, commands, fs
// through unsaved buffers, pseudoterminals, permissions, webview panels and views). `node test/harness/runUi.mjs --all` (or SWITCHBOARD_UI_FULL=1) runs
// everything on every version. A name here that is no module fails the run, so the list cannot rot.
//
// Not here, though they once were (issue 25 trimmed the list to what rests on the workbench): approvals-bind,
// approval-rules, turn-audit and untrusted-rules (permission cards and rules are the webview's and the
// extension's own logic; new-session and permission-focus keep the permission dialog on this workbench, trust
// keeps Restricted Mode), agent-text and demoTitles (the side bar stays in side-bar-chat, tabs and the Sessions
// tree in sessions), userDayPalette (the palette and quick picks stay in every test that runs a command),
// sessionEdges (Reload Window stays in reload-tabs and processLifetime), protocolV2 and steering (the protocol and
// the composer are the extension's and the webview's; keys in a webview stay in permission-focus and composerFocus).

/** @type {Record<string, string>} module name -> why it runs on the oldest version too */
export const compatSubset = {
  smoke: 'activation: the workbench loads the extension and its commands reach the command palette',
  'new-session': 'the person\'s main path: New Session, a streamed answer, the tour\'s permission dialog and its tool calls',
  streaming: 'streaming text and thoughts into a webview panel (the webview host page and its message passing differ per version)',
  'permission-focus': 'permissions: focus and keyboard between the workbench and a webview (focus handling of webviews changed across versions)',
  cards: 'terminals and diffs: pseudoterminal output, terminal cards and every tool-call card',
  follow: 'fs through buffers and the editor following the agent: preview tabs, editor groups and the tab API',
  changedFiles: 'writes through the editor\'s buffers and the diff editor (vscode.diff) opened from the webview',
  'side-bar-chat': 'the side bar: before 1.106 the Chat view is moved into the secondary side bar with vscode.moveViews',
  'reload-tabs': 'reload: webview panels restored by the serializer after Reload Window',
  trust: 'workspace trust: Restricted Mode and restrictedConfigurations',
  'hide-show': 'a webview panel hidden and shown again (re-created without retainContextWhenHidden)',
  composerFocus: 'the keyboard lands in a webview after New Session, Switch Session and a tab change',
  csp: 'the webview\'s Content Security Policy inside the version\'s own webview host page',
  'editor-tools': 'the editor\'s MCP tools: languages.getDiagnostics on an unsaved buffer, the tab API and the language features of this version, over the stdio bridge and HTTP',
  walkthrough: 'the walkthrough contribution, rendered by the version\'s own Welcome page',
  sessions: 'switching sessions from the command palette and the Sessions tree view',
  'inert-sinks': 'agent text in workbench surfaces (notifications, quick picks, status bar, trees), which each version renders itself',
  processLifetime: 'agent processes end with their window: the extension host\'s shutdown differs per server version',
  worktrees: 'issue 31: worktrees with real git, through the multi-select quick pick, the merge editor (_open.mergeEditor), modal dialogs, a second webview panel restored by its serializer after Reload Window, and the Sessions tree',
  sessionsKeyboard: 'issue 26: the Sessions tree by keyboard: F2, Delete and Space on the focused row rest on the workbench\'s list commands and keybindings',
  servedAgents: 'issue 32: an agent served over WebSocket and HTTP, through the chat: the permission dialog, the lost connection, Reconnecting… in the header and its banner, and the resumed session',
  sshAgent: 'issue 32: an agent over the system ssh started from this version\'s extension host, through the chat: the lost connection (ssh exits 255), Reconnecting…, the resumed session, and a command run here only after the card asked',
};
