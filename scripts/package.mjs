#!/usr/bin/env node
// `npm run package`: a clean production build (minified, no sources content, no stale source maps in dist/)
// and switchboard-<version>.vsix with @vscode/vsce. Everything is bundled, so no node_modules are shipped.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const out = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: root, stdio: 'inherit' });
const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: root, stdio: 'inherit' });
console.log(`packaged ${path.relative(root, out)} (${(fs.statSync(out).size / 1024).toFixed(0)} KiB)`);
