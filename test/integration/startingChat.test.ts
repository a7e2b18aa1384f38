/**
 * New Session opens the chat's tab while the agent starts (src/chatHost/startingChat.ts): the tab is there
 * before the agent has answered, the same tab becomes the session's chat (no second one), and a start that
 * fails closes it.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { api, extensionId, until, useScriptedAgent } from './helpers';

/** The chat tabs (webview tabs of the chat's view type), by label. */
function chatTabs(): string[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('switchboard.chat'))
    .map((t) => t.label);
}

/** The scripted agent `scenario`, started through `sh` after `sleep` seconds (a slow start), or failing after it. */
async function slowAgent(scenario: string, id: string, sleep: number, fail = false): Promise<string> {
  const root = vscode.extensions.getExtension(extensionId)?.extensionPath;
  assert.ok(root);
  const script = path.join(root, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js');
  const file = path.join(root, 'test', 'fixtures', 'agents', 'scenarios', `${scenario}.json`);
  const shell = fail ? `sleep ${sleep}; echo 'no such agent today' >&2; exit 3` : `sleep ${sleep}; exec "$0" "$@"`;
  return useScriptedAgent(scenario, {}, id, { command: '/bin/sh', args: ['-c', shell, process.execPath, script, file] });
}

describe('a chat while its agent starts', function () {
  this.timeout(120000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(async () => {
    for (const id of sb.sessionIds()) sb.closeSession(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows its tab before the agent answers, and that tab becomes the session\'s chat', async () => {
    const agent = await slowAgent('historyPaging', 'slow-start', 2);
    const before = chatTabs().length;
    const started = vscode.commands.executeCommand('switchboard.newSession', agent);
    const starting = await until(() => chatTabs().find((l) => l.includes('starting')), 'a chat tab while the agent starts', 1500);
    assert.ok(starting.startsWith('Scripted historyPaging'), `the tab names the agent: ${starting}`);
    assert.equal(sb.sessionIds().length, 0, 'the session does not exist yet');
    await started;
    const [id] = sb.sessionIds();
    assert.ok(id, 'the session started');
    assert.equal(sb.chatLocation(id), 'tab');
    const tabs = chatTabs();
    assert.equal(tabs.length, before + 1, `one chat tab, not a second one: ${JSON.stringify(tabs)}`);
    await until(() => !chatTabs().some((l) => l.includes('starting')), 'the tab named after the session');
  });

  it('closes its tab when the agent fails to start', async () => {
    const agent = await slowAgent('historyPaging', 'failing-start', 0.5, true);
    const before = chatTabs().length;
    const started = vscode.commands.executeCommand('switchboard.newSession', agent);
    await until(() => chatTabs().length === before + 1, 'a chat tab while the agent starts', 1500);
    await started;
    assert.equal(sb.sessionIds().length, 0, 'no session');
    await until(() => chatTabs().length === before, 'the tab closed after the failed start', 5000);
  });
});
