import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentChangeDiffContextKey, canLogOutContextKey, chatViewType, commandIds, readOnlyContextKey, sessionsShowArchivedContextKey, sessionsViewId } from '../../../src/constants';

/** package.json, found from the compiled test (out/test/unit/shared) or the source. */
function manifest(): { activationEvents: string[]; contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]>; menus: Record<string, { when?: string }[]> } } {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

describe('constants', () => {
  const pkg = manifest();
  it('name every contributed command, and only those', () => {
    assert.deepEqual(Object.values(commandIds).sort(), pkg.contributes.commands.map((c) => c.command).sort());
  });
  it('match the chat view type, the Sessions view and the context keys package.json uses', () => {
    assert.ok(pkg.activationEvents.includes(`onWebviewPanel:${chatViewType}`));
    assert.ok(Object.values(pkg.contributes.views).flat().some((v) => v.id === sessionsViewId));
    const whens = Object.values(pkg.contributes.menus).flat().map((m) => m.when ?? '').join(' ');
    for (const key of [readOnlyContextKey, canLogOutContextKey, agentChangeDiffContextKey, sessionsShowArchivedContextKey]) assert.ok(whens.includes(key), key);
  });
});
