#!/usr/bin/env node
// Writes the settings and commands tables of README.md from package.json (`contributes.configuration` and
// `contributes.commands`), between the markers <!-- settings:start --> … <!-- settings:end --> and
// <!-- commands:start --> … <!-- commands:end -->, so the README cannot drift from the manifest.
//   node scripts/settingsTable.mjs           update README.md
//   node scripts/settingsTable.mjs --check   exit 1 if README.md is out of date (run by npm test)
import fs from 'node:fs';

const readmeUrl = new URL('../README.md', import.meta.url);
const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const props = pkg.contributes?.configuration?.properties ?? {};
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const rows = Object.entries(props).sort(([a], [b]) => a.localeCompare(b)).map(([key, p]) => {
  const type = p.enum ? p.enum.map((v) => `\`${v}\``).join(' | ') : p.type ?? '';
  const def = p.default === undefined ? '' : `\`${JSON.stringify(p.default)}\``;
  const text = (p.markdownDescription ?? p.description ?? '').split(/(?<=\.)\s/)[0];
  return `| \`${key}\` | ${cell(type)} | ${cell(def)} | ${cell(text)} |`;
});
const table = ['| Setting | Type | Default | Description |', '|---|---|---|---|', ...rows].join('\n');
const hidden = new Set((pkg.contributes?.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
const commands = (pkg.contributes?.commands ?? []).filter((c) => !hidden.has(c.command));
const keys = new Map((pkg.contributes?.keybindings ?? []).map((k) => [k.command, k.key]));
const commandTable = ['| Command | Keybinding |', '|---|---|',
  ...commands.map((c) => `| ${c.category ? `${c.category}: ` : ''}${c.title} | ${keys.has(c.command) ? `\`${keys.get(c.command)}\`` : ''} |`)].join('\n');
const readme = fs.readFileSync(readmeUrl, 'utf8');
let next = readme;
for (const [name, content] of [['settings', table], ['commands', commandTable]]) {
  const re = new RegExp(`(<!-- ${name}:start -->\\n)[\\s\\S]*?(\\n<!-- ${name}:end -->)`);
  if (!re.test(next)) {
    console.error(`README.md has no <!-- ${name}:start --> … <!-- ${name}:end --> markers`);
    process.exit(1);
  }
  next = next.replace(re, `$1${content}$2`);
}
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error('README.md settings table is out of date: run node scripts/settingsTable.mjs');
    process.exit(1);
  }
  console.log(`README settings and commands tables up to date (${rows.length} settings, ${commands.length} commands)`);
} else {
  fs.writeFileSync(readmeUrl, next);
  console.log(`README tables: ${rows.length} settings, ${commands.length} commands`);
}
