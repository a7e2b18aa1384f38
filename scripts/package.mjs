#!/usr/bin/env node
// `npm run package`: switchboard-<version>.vsix with @vscode/vsce, from a clean production build (minified,
// no sources content, no source maps). It is built in a staging folder, so the working dist/ (and any test
// run using it) is left alone; everything is bundled, so no node_modules are shipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-package-'));
try {
  for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore']) fs.copyFileSync(path.join(root, f), path.join(stage, f));
  fs.cpSync(path.join(root, 'media'), path.join(stage, 'media'), { recursive: true });
  execFileSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', path.join(stage, 'dist')], { cwd: root, stdio: 'inherit' });
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: stage, stdio: 'inherit' });
  console.log(`packaged ${path.relative(root, out)} (${(fs.statSync(out).size / 1024).toFixed(0)} KiB)`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
