import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'switchboard.switchboard';

describe('activation', () => {
  it('the extension is installed', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found; installed: ${vscode.extensions.all.map((e) => e.id).filter((id) => !id.startsWith('vscode.')).join(', ') || 'none but built-ins'}`);
  });

  it('activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers the command switchboard.newSession', async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('switchboard.newSession'),
      `switchboard.newSession is not registered; switchboard.* commands: ${commands.filter((c) => c.startsWith('switchboard.')).join(', ') || 'none'}`);
  });
});
