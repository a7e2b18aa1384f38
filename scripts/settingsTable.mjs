#!/usr/bin/env node
// Writes the settings table of README.md from package.json (`contributes.configuration`), between the
// markers <!-- settings:start --> and <!-- settings:end -->, so the README cannot drift from the manifest.
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
const readme = fs.readFileSync(readmeUrl, 'utf8');
const re = /(<!-- settings:start -->\n)[\s\S]*?(\n<!-- settings:end -->)/;
if (!re.test(readme)) {
  console.error('README.md has no <!-- settings:start --> … <!-- settings:end --> markers');
  process.exit(1);
}
const next = readme.replace(re, `$1${table}$2`);
if (process.argv.includes('--check')) {
  if (next !== readme) {
    console.error('README.md settings table is out of date: run node scripts/settingsTable.mjs');
    process.exit(1);
  }
  console.log(`README settings table up to date (${rows.length} settings)`);
} else {
  fs.writeFileSync(readmeUrl, next);
  console.log(`README settings table: ${rows.length} settings`);
}
