import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// What package.json shows a person: the Settings editor, the command palette, the walkthrough.

interface Setting { enum?: string[]; enumItemLabels?: string[]; enumDescriptions?: string[] }
interface Manifest {
  contributes: {
    configuration: { properties: Record<string, Setting> };
    commands: { command: string; title: string; category?: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
    walkthroughs: { steps: { id: string; description: string }[] }[];
  };
}

function repoFile(name: string): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, name);
}
const pkg = JSON.parse(fs.readFileSync(repoFile('package.json'), 'utf8')) as Manifest;

describe('manifest text', () => {
  it('every enum setting has a label and a description per value (Settings shows no raw values)', () => {
    const enums = Object.entries(pkg.contributes.configuration.properties).filter(([, p]) => p.enum);
    assert.ok(enums.some(([k]) => k === 'switchboard.chat.openIn'));
    for (const [key, p] of enums) {
      assert.equal(p.enumItemLabels?.length, p.enum?.length, `${key}: enumItemLabels`);
      assert.equal(p.enumDescriptions?.length, p.enum?.length, `${key}: enumDescriptions`);
    }
  });

  it('"ACP: New Session" in the palette finds New Session… by prefix and no other visible command', () => {
    const hidden = new Set(pkg.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command));
    const titled = pkg.contributes.commands.filter((c) => !hidden.has(c.command)).map((c) => ({ id: c.command, title: `${c.category ?? ''}: ${c.title}` }));
    assert.deepEqual(titled.filter((c) => c.title.startsWith('ACP: New Session')).map((c) => c.id), ['switchboard.newSession']);
    assert.ok(titled.some((c) => c.id === 'switchboard.chatView.newSession' && /Chat View/.test(c.title)), 'the Chat view\'s New Session keeps a title of its own');
  });

  it('the walkthrough\'s first step offers the Demo agent first, and its JSON example has short lines', () => {
    const first = pkg.contributes.walkthroughs[0].steps[0];
    const links = [...first.description.matchAll(/\[([^\]]+)\]\(command:([^)?]+)(\?[^)]*)?\)/g)].map((m) => [m[1], m[2], decodeURIComponent(m[3] ?? '')]);
    assert.deepEqual(links[0], ['Try the Demo agent', 'switchboard.newSession', '?["demo"]']);
    const media = fs.readFileSync(repoFile('media/walkthrough/pickAgent.md'), 'utf8');
    const code = /```json\n([\s\S]*?)```/.exec(media)?.[1] ?? '';
    assert.ok(code.includes('"command": "npx"'));
    for (const line of code.split('\n')) assert.ok(line.length <= 50, `too long for the walkthrough's media column: ${line}`);
  });
});
