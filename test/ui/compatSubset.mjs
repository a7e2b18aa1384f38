// @ts-check
// The UI tests that also run on the oldest VS Code we support (versions.json "subset": 1.100.3), and why.
// The newest version runs every test/ui/*.ui.mjs; the oldest runs these: the user's main path, and every
// test whose behaviour rests on a workbench API or surface that differs between the versions. What only the
// webview or the extension's own logic decides (Markdown, cards, the composer, session logic) does not
// depend on the VS Code version and runs once, on the newest. The integration layer has its own subset for
// the oldest version (test/integration/compatSubset.mjs: the extension host's APIs, activation, commands, fs
// through unsaved buffers, pseudoterminals, permissions, webview panels and views). `node test/harness/runUi.mjs --all` (or SWITCHBOARD_UI_FULL=1) runs
// everything on every version. A name here that is no module fails the run, so the list cannot rot.

/** @type {Record<string, string>} module name -> why it runs on the oldest version too */
export const compatSubset = {
  smoke: 'activation: the workbench loads the extension and its commands reach the command palette',
  'new-session': 'the person\'s main path: New Session, a streamed answer, the tour\'s permission dialog and its tool calls',
  streaming: 'streaming text and thoughts into a webview panel (the webview host page and its message passing differ per version)',
  'approvals-bind': 'permission cards and the client\'s own questions on this workbench',
  'approval-rules': 'the rule editor (quick input, createInputBox validation messages) and a rule answering a card, by keyboard, on this workbench',
  'turn-audit': 'the turn audit: its warning, its Revert (the restore preview in the quick input) and the Sessions view mark, on this workbench',
  'untrusted-rules': 'Restricted Mode: workspace trust (isTrusted, inspect of workspace settings) decides that a workspace allow rule does not apply, on this workbench',
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
  'agent-text': 'issue 26: the side-bar chat at 250-300 px (the secondary side bar and its sash differ per version), slash commands, agent text folded, ANSI colours in tool text',
  demoTitles: 'issue 26: new sessions told apart in tabs, the Sessions tree and Switch Session (workbench surfaces each version renders), the tour\'s write and terminal',
  processLifetime: 'agent processes end with their window: the extension host\'s shutdown differs per server version',
  userDayPalette: 'issue 26: the command palette\'s order, a quick pick\'s preselected row, the walkthrough\'s buttons and media, and notifications, which each version renders itself',
  sessionEdges: 'issue 26: a turn cut off by Reload Window (the extension host\'s shutdown and the disposal of webview panels differ per version)',
  worktrees: 'issue 31: worktrees with real git, through the multi-select quick pick, the merge editor (_open.mergeEditor), modal dialogs, a second webview panel restored by its serializer after Reload Window, and the Sessions tree',
  protocolV2: 'issue 33: ACP v2 behind its setting: a v2 agent\'s turn, its terminals and background work with Stop (by keyboard in a webview), and its transcript after Reload Window, on this workbench',
  steering: 'issue 33: Send Now by keyboard (Alt+Enter in a webview, which the workbench must not take), a notice\'s button, and the steered mark after Reload Window',
  sessionsKeyboard: 'issue 26: the Sessions tree by keyboard: F2, Delete and Space on the focused row rest on the workbench\'s list commands and keybindings',
};
