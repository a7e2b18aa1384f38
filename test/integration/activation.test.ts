import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, until } from './helpers';

const EXTENSION_ID = 'switchboard.switchboard';

// the runner (index.ts) runs this file first: the extension is as a window's start leaves it, nothing used yet
describe('activation', () => {
  it('loads the core at idle after activation, with no command run (docs/performance.md, "Start fast, ship small")', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    await ext.activate(); // the stubs only; onStartupFinished may have activated it already
    const core = path.join(ext.extensionPath, 'dist', 'core.js');
    await until(() => require.cache[core], `${core} to load at idle, with no command run`, 15_000);
    // its services are built in the task after the bundle's (src/coreLoader.ts): a timer set now runs after it
    await new Promise((resolve) => setTimeout(resolve, 100));
    // the core's log says what loaded it (src/coreLoader.ts): idle, not a command, a view or the API
    const dir = path.dirname((await api()).logDir());
    const line = await until(() => {
      const logs = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === 'Switchboard.log');
      return logs.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n').split('\n').find((l) => l.includes('the core loaded'));
    }, 'the core\'s log line about its loading', 10_000);
    assert.match(line, /the core loaded at idle after activation \(its bundle took \d+ ms\)/);
  });

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
