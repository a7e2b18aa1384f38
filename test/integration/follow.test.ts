/**
 * Follow Agent in the real extension host, against test/fixtures/agents/scenarios/follow.json: the file of
 * a tool call opens beside the chat at the right line, the chat keeps the focus, bursts show the latest
 * location, and an edit highlights its changed lines.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardTestApi } from '../../src/api';
import { api, until, useScriptedAgent, workspaceRoot } from './helpers';

const lines = (n: number, label: string) => Array.from({ length: n }, (_, i) => `${label} line ${i + 1}`).join('\n') + '\n';

function visibleEditor(file: string): vscode.TextEditor | undefined {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === file);
}

function chatIsActive(): boolean {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return tab?.input instanceof vscode.TabInputWebview && /switchboard\.chat/.test(tab.input.viewType);
}

describe('Follow Agent', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  let agent: string;
  let dir: string;
  before(async () => {
    sb = await api();
    agent = await useScriptedAgent('follow');
    dir = path.join(workspaceRoot(), 'follow');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'sample.txt'), lines(200, 'sample'));
    for (const f of ['a', 'b', 'c']) fs.writeFileSync(path.join(dir, `${f}.txt`), lines(50, f));
    fs.writeFileSync(path.join(dir, 'edit.txt'), 'line 1\nline 2\nLINE THREE\nline 4\nline 5\nline 6a\nline 6b\nline 7\nline 8\n');
  });
  after(async () => {
    await sb.stopAll();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  async function followingSession(): Promise<string> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const id = await sb.newSession(agent, { chat: true });
    await until(() => chatIsActive(), 'the new chat panel to be active');
    await vscode.commands.executeCommand('switchboard.followAgent');
    assert.equal(sb.session(id)?.follow.enabled, true, 'the command turned following on for the active session');
    assert.equal(sb.snapshot(id)?.state.following, true, 'the chat header state shows it');
    return id;
  }

  it('opens the file of a tool call beside the chat at the right line, without taking the focus', async () => {
    const id = await followingSession();
    const chatColumn = vscode.window.tabGroups.activeTabGroup.viewColumn;
    await sb.prompt(id, 'read');
    const file = path.join(dir, 'sample.txt');
    const editor = await until(() => visibleEditor(file), 'sample.txt to be shown');
    await until(() => editor.selection.active.line === 29, `the cursor on line 30 (at ${editor.selection.active.line + 1})`);
    assert.ok(editor.visibleRanges.some((r) => r.start.line <= 29 && r.end.line >= 29), 'line 30 is revealed');
    assert.notEqual(editor.viewColumn, chatColumn, 'the chat panel was not replaced');
    assert.ok(chatIsActive(), 'the chat panel kept the focus');
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === file);
    assert.equal(tab?.isPreview, true, 'opened as a preview');
    assert.deepEqual(sb.session(id)?.follow.lastShown, { path: file, ranges: [{ start: 29, end: 29 }] });
  });

  it('in a burst the latest location wins', async () => {
    const id = await followingSession();
    await sb.prompt(id, 'burst');
    const file = path.join(dir, 'c.txt');
    const editor = await until(() => visibleEditor(file), 'c.txt to be shown');
    await until(() => editor.selection.active.line === 19, 'the cursor on line 20');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(sb.session(id)?.follow.lastShown?.path, file, 'nothing was shown after the latest');
    const shown = vscode.workspace.textDocuments.map((d) => path.basename(d.uri.fsPath));
    assert.ok(!shown.includes('a.txt'), `a.txt was skipped (open: ${shown.join(', ')})`);
  });

  it('an edit highlights its changed lines', async () => {
    const id = await followingSession();
    await sb.prompt(id, 'edit');
    const file = path.join(dir, 'edit.txt');
    const editor = await until(() => visibleEditor(file), 'edit.txt to be shown');
    await until(() => sb.session(id)?.follow.lastShown?.path === file, 'the edit to be shown');
    assert.deepEqual(sb.session(id)?.follow.lastShown?.ranges, [{ start: 2, end: 2 }, { start: 5, end: 6 }]);
    assert.equal(editor.selection.active.line, 2, 'the cursor at the first changed line');
    assert.ok(chatIsActive(), 'the chat panel kept the focus');
  });

  it('off again, nothing opens', async () => {
    const id = await followingSession();
    await vscode.commands.executeCommand('switchboard.followAgent');
    assert.equal(sb.session(id)?.follow.enabled, false);
    assert.equal(sb.snapshot(id)?.state.following, false);
    await sb.prompt(id, 'read');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(visibleEditor(path.join(dir, 'sample.txt')), undefined);
    assert.equal(sb.session(id)?.follow.lastShown, undefined);
  });
});
