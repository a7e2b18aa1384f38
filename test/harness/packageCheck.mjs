#!/usr/bin/env node
// @ts-check
// `npm run package` and a check of what it produced: switchboard-<version>.vsix holds only dist/ (no
// source maps), media/, package.json, README.md, CHANGELOG.md and LICENSE (plus the two manifest files
// every .vsix has), is at most 2 MB, and its package.json carries the Marketplace metadata.
// Each check is one test. Closing line "N passed, N failed"; JSON summary to SWITCHBOARD_RESULTS_JSON.
//
//   node test/harness/packageCheck.mjs            # package, then check
//   node test/harness/packageCheck.mjs --no-build # check an existing .vsix
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const vsix = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
const maxBytes = 2 * 1024 * 1024;
const t0 = Date.now();

/** @type {{ name: string, ok: boolean, detail: string }[]} */
const results = [];
const check = (/** @type {string} */ name, /** @type {boolean} */ ok, detail = '') => {
  results.push({ name, ok, detail });
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
};

if (!process.argv.includes('--no-build')) {
  try {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, npm_config_loglevel: 'error' } });
    check('npm run package builds the .vsix', fs.existsSync(vsix), path.basename(vsix));
  } catch (e) {
    check('npm run package builds the .vsix', false, String(e));
  }
}

/** @returns {Promise<{ name: string, size: number }[]>} */
function entries(/** @type {string} */ file) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      /** @type {{ name: string, size: number }[]} */
      const out = [];
      zip.on('entry', (e) => { out.push({ name: e.fileName, size: e.uncompressedSize }); zip.readEntry(); });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

if (fs.existsSync(vsix)) {
  const files = (await entries(vsix)).filter((e) => !e.name.endsWith('/'));
  const names = files.map((f) => f.name.replace(/^extension\//, ''));
  const allowed = (/** @type {string} */ n) => n === '[Content_Types].xml' || n === 'extension.vsixmanifest'
    || /^dist\/.+\.(js|css|ttf)$/.test(n) || /^dist\/[^/]+\.wasm$/.test(n) || n.startsWith('media/') || ['package.json', 'readme.md', 'changelog.md', 'license.txt', 'LICENSE.txt', 'LICENSE'].includes(n)
    || /^(readme|changelog)\.md$/i.test(n) || /^license(\.txt)?$/i.test(n);
  const extra = names.filter((n) => !allowed(n));
  check('the .vsix holds only dist/, media/, package.json, README, CHANGELOG and LICENSE', extra.length === 0, extra.length ? `unexpected: ${extra.join(', ')}` : `${names.length} files`);
  check('no source maps in the .vsix', !names.some((n) => n.endsWith('.map')));
  for (const required of ['dist/extension.js', 'dist/core.js', 'dist/registry.js', 'dist/archiveExtract.js', 'dist/agents/demoAgent.js', 'dist/agents/watchdog.js', 'dist/agents/mcpBridge.js', 'dist/agents/mcpSteps.js', 'dist/editorTools.js', 'dist/globMatcher.js', 'dist/checkpoints.js', 'dist/diff.js', 'dist/addAgent.js', 'dist/acpConnection.js', 'dist/manageRules.js', 'dist/ruleEditor.js', 'dist/reviewChanges.js', 'dist/providerFlow.js', 'dist/checkpointActions.js', 'dist/webview/main.js', 'dist/webview/main.css', 'dist/webview/compare.js', 'dist/webview/compare.css', 'dist/tree-sitter.wasm', 'dist/tree-sitter-bash.wasm', 'package.json']) {
    check(`the .vsix contains ${required}`, names.includes(required));
  }
  check('README, CHANGELOG and LICENSE are in the .vsix', ['readme.md', 'changelog.md'].every((n) => names.some((x) => x.toLowerCase() === n)) && names.some((x) => /^license/i.test(x)));
  // sizes, not timings (docs/performance.md, "Start fast, ship small"): activation loads only the entry's
  // stubs, and the chat's webview stays within its budget
  const sizeOf = (/** @type {string} */ n) => files.find((f) => f.name === `extension/${n}`)?.size ?? Infinity;
  const entry = sizeOf('dist/extension.js');
  check('activation loads at most 20 KB (dist/extension.js; the rest is dist/core.js, loaded on first use)', entry <= 20 * 1024, `${(entry / 1024).toFixed(1)} KiB`);
  // what the first session waits for: the entry and the core (the lazy parts load on first use)
  const core = entry + sizeOf('dist/core.js');
  check('the JS loaded before the first session is at most 500 KB (dist/extension.js and dist/core.js)', core <= 500 * 1000, `${(core / 1000).toFixed(0)} KB`);
  const webview = sizeOf('dist/webview/main.js') + sizeOf('dist/webview/main.css');
  check('the chat webview is at most 400 KB of JS and CSS', webview <= 400 * 1000, `${(webview / 1000).toFixed(0)} KB`);
  // the chat's page carries its script and stylesheet inline (src/chatHost/html.ts): neither may end its element early
  const inline = (/** @type {string} */ n) => fs.readFileSync(path.join(ROOT, n), 'utf8');
  check('the chat\'s script and stylesheet can go inside its page (no "</script" or "</style" in them)', !/<\/script/i.test(inline('dist/webview/main.js')) && !/<\/style/i.test(inline('dist/webview/main.css')));
  // the compare view of "Ask Several Agents…" is a page of its own (webview/compare/main.ts), apart from the chat's budget
  const compare = sizeOf('dist/webview/compare.js') + sizeOf('dist/webview/compare.css');
  check('the compare view is at most 40 KB of JS and CSS', compare <= 40 * 1000, `${(compare / 1000).toFixed(1)} KB`);
  const size = fs.statSync(vsix).size;
  check('the .vsix is at most 2 MB', size <= maxBytes, `${(size / 1024).toFixed(0)} KiB`);
}

// Marketplace metadata
const iconPath = pkg.icon ? path.join(ROOT, pkg.icon) : '';
let iconOk = false;
if (iconPath && fs.existsSync(iconPath)) {
  const b = fs.readFileSync(iconPath);
  iconOk = b.subarray(1, 4).toString('latin1') === 'PNG' && b.readUInt32BE(16) === 128 && b.readUInt32BE(20) === 128;
}
check('a 128×128 PNG icon', iconOk, pkg.icon ?? 'no "icon"');
check('a gallery banner', typeof pkg.galleryBanner?.color === 'string' && ['dark', 'light'].includes(pkg.galleryBanner?.theme));
check('categories AI and Chat', ['AI', 'Chat'].every((c) => pkg.categories?.includes(c)));
check('keywords acp, agent, claude, codex, gemini, opencode', ['acp', 'agent', 'claude', 'codex', 'gemini', 'opencode'].every((k) => pkg.keywords?.includes(k)));
check('repository, bugs and license', Boolean(pkg.repository?.url && pkg.bugs?.url && pkg.license === 'MIT'));
check('preview until 1.0', pkg.preview === true || !/^0\./.test(pkg.version));
check('publish scripts take their tokens from the environment', /\$VSCE_PAT|VSCE_PAT/.test(pkg.scripts?.['publish:vsce'] ?? '') && /OVSX_PAT/.test(pkg.scripts?.['publish:ovsx'] ?? ''));

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
const summaryFile = process.env.SWITCHBOARD_RESULTS_JSON;
if (summaryFile) {
  fs.writeFileSync(summaryFile, JSON.stringify({ layer: 'package', passed, failed, versions: [{ version: '-', passed, failed, pending: 0, seconds: (Date.now() - t0) / 1000, failures: results.filter((r) => !r.ok).map((r) => `${r.name}${r.detail ? `: ${r.detail}` : ''}`) }] }, null, 2));
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
