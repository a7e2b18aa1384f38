// @ts-check
// The integration suites that also run on the oldest VS Code we support (versions.json "subset": 1.100.3),
// and why: each one rests on an extension API whose behaviour differs between versions (activation and
// commands, webview panels and views, text documents and edits, pseudoterminals, notifications, tabs and
// editors, SecretStorage, workspace folders). The newest version runs every test/integration/*.test.ts. The
// others test the extension's own logic against scripted agents (turns, crash recovery, checkpoints, the
// registry, MCP, session organisation, the composer's messages), which does not change with the workbench;
// their workbench surfaces on the oldest version are covered by the UI subset (test/ui/compatSubset.mjs).
// `node test/harness/runIntegration.mjs --all` (or SWITCHBOARD_INTEGRATION_FULL=1) runs every suite on every
// version. A name here that is no test file fails the run, so the list cannot rot.

/** @type {Record<string, string>} test file (test/integration/<name>.test.ts) -> why it runs on the oldest version too */
export const compatSubset = {
  activation: 'activation: activation events, the contributed commands and views registering on this workbench',
  session: 'New Session and streaming with the Demo agent: a webview panel, its messages and the session in the status bar',
  permissions: 'permissions: the broker with the chat shown and hidden, a notification with actions when it is hidden',
  terminal: 'terminal/*: pseudoterminals (vscode.window.createTerminal with a Pseudoterminal), their output, exit and kill',
  terminalPacing: 'how output is paced into a Pseudoterminal\'s onDidWrite',
  fs: 'fs/* through the editor\'s buffers: unsaved documents, WorkspaceEdit, line endings and the diff editor',
  chatView: 'the Chat view (a WebviewView) in the secondary side bar: before 1.106 it is moved there with vscode.moveViews',
  chatPanels: 'webview panels: serializer, retainContextWhenHidden and disposal',
  follow: 'Follow Agent: showTextDocument, preview tabs, editor groups and the tab API',
  auth: 'logins: SecretStorage and a terminal login (createTerminal with env)',
  additionalDirectories: 'session roots from the workspace folders (vscode.workspace.workspaceFolders, multi-root)',
  editorTools: 'the editor\'s MCP tools: languages.getDiagnostics, the vscode.execute*Provider commands, the tab API and VS Code\'s bundled ripgrep (its path differs between builds)',
  remoteAgents: 'agents on another machine: the system ssh started from this server version\'s extension host (its environment and process groups), against a real sshd',
  servedAgents: 'agents served over WebSocket and HTTP: the ws client and fetch (SSE) in this server version\'s extension host (its Node), and reconnection',
};
