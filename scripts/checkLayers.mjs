#!/usr/bin/env node
// @ts-check
// The layering check of docs/architecture.md, runnable by anyone: `node scripts/checkLayers.mjs`.
//   1. no import circles between files (outside src/demoAgent, whose scripted engine is its own program);
//   2. no import from a lower layer to a higher one (the layer table below, top to bottom);
//   3. src/host has at most 15 entries at its top level;
//   4. no hand-written source file over 400 lines, tests and scripts included (generated *.gen.ts aside);
//   5. the extension's and the webview's code imports zod only as zod/mini (and zod/v4/core), so the bundles
//      never carry zod's classic API (docs/performance.md, "Start fast, ship small"); src/demoAgent and the
//      editor's MCP server (its SDK's own bundle) aside.
// Imports are read from the source text (static `import … from`, `export … from`, `import('…')`), type-only
// ones included: a type import is an arrow too. Exit 1 with a list of what is wrong.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TREES = ['src', 'webview'];
const MAX_LINES = 400;
const MAX_HOST_ENTRIES = 15;

/**
 * Layers, top (0) to bottom. A file belongs to the first pattern that matches its path (relative to the
 * repository, with forward slashes); it may import files of its own layer or of any layer below it.
 * Keep in step with docs/architecture.md ("Layers").
 * @type {[number, RegExp][]}
 */
const LAYERS = [
  [0, /^src\/(extension|core|coreLoader|api)\.ts$/],
  [1, /^src\/workbench\//],
  [2, /^src\/chatHost\//],
  [3, /^src\/host\/(sessionManager|features)\.ts$/],
  [4, /^src\/host\/(history|lifecycle|auth)\//],
  [5, /^src\/host\/agentSession\.ts$/],
  [6, /^src\/host\/agentHost\.ts$/],
  [7, /^src\/host\/(terminals|follow)\//],
  [8, /^src\/host\/(files|prompts|permissions)\//], // permissions: the answers bind the writes of files/ (src/host/permissions/grantLedger.ts)
  [9, /^src\/host\/[^/]+\.ts$/], // the host's seams: clientFeature, sessionContext, sessionKey
  [10, /^src\/(registry|agents|checkpoints|worktrees)\//],
  // the thread by kind of thing: the Markdown and text export → the projections to the view → the model and its
  // reducers → small helpers (docs/recipes.md); a model file never imports a projection
  [10.2, /^src\/thread\/export\//],
  [10.4, /^src\/thread\/view\//],
  [10.6, /^src\/thread\/model\//],
  [10.8, /^src\/thread\/util\//],
  [11, /^src\/acp\//],
  [12, /^src\/constants\.ts$/],
  // the chat webview's own tree: bootstrap → transcript / composer → views → components → store, actions, ipc → lib (pure cores)
  [20, /^webview\/main\.ts$/],
  [20, /^webview\/compare\//], // the compare view's own page (docs/worktrees.md): may use the pure cores of webview/lib
  [21, /^webview\/(transcript|composer)\//],
  [22, /^webview\/views\//],
  [23, /^webview\/components\//],
  [24, /^webview\/[^/]+\.ts$/],
  [25, /^webview\/lib\//],
  // the contract between the extension and the webview, at the bottom of both
  [30, /^src\/shared\//],
];

/** @param {string} rel */
function layerOf(rel) {
  for (const [rank, re] of LAYERS) if (re.test(rel)) return rank;
  return undefined;
}

/** @param {string} dir @returns {string[]} */
function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return walk(p);
    return /\.(ts|mts)$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

const files = TREES.flatMap((t) => walk(path.join(ROOT, t)));
const rel = (/** @type {string} */ p) => path.relative(ROOT, p).split(path.sep).join('/');
const importRe = /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** @param {string} from @param {string} spec @returns {string | undefined} */
function resolve(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return undefined;
}

/** @type {Map<string, string[]>} */
const graph = new Map();
for (const f of files) {
  const text = fs.readFileSync(f, 'utf8');
  const deps = new Set();
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3];
    const target = spec && resolve(f, spec);
    if (target && /\.(ts|mts)$/.test(target)) deps.add(rel(target));
  }
  graph.set(rel(f), [...deps]);
}

const problems = [];

// 1. circles (Tarjan's strongly connected components)
{
  let index = 0;
  /** @type {Map<string, number>} */ const idx = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const on = new Set();
  /** @param {string} v */
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(/** @type {number} */ (low.get(v)), /** @type {number} */ (low.get(w)))); }
      else if (on.has(w)) low.set(v, Math.min(/** @type {number} */ (low.get(v)), /** @type {number} */ (idx.get(w))));
    }
    if (low.get(v) === idx.get(v)) {
      /** @type {string[]} */ const scc = [];
      let w;
      do { w = /** @type {string} */ (stack.pop()); on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 && !scc.every((s) => s.startsWith('src/demoAgent/'))) problems.push(`import circle: ${scc.sort().join(' ↔ ')}`);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
}

// 2. arrows that point up
for (const [from, deps] of graph) {
  if (from.startsWith('src/demoAgent/')) continue;
  const a = layerOf(from);
  if (a === undefined) { problems.push(`no layer for ${from}: add it to LAYERS in scripts/checkLayers.mjs and to docs/architecture.md`); continue; }
  for (const to of deps) {
    if (to.startsWith('src/demoAgent/')) { problems.push(`${from} imports the demo agent's code (${to})`); continue; }
    const b = layerOf(to);
    if (b !== undefined && b < a) problems.push(`upward import: ${from} (layer ${a}) → ${to} (layer ${b})`);
  }
}

// 3. the host's top level
const hostEntries = fs.readdirSync(path.join(ROOT, 'src', 'host'));
if (hostEntries.length > MAX_HOST_ENTRIES) problems.push(`src/host has ${hostEntries.length} top-level entries (at most ${MAX_HOST_ENTRIES}): ${hostEntries.join(', ')}`);

// 4. file length: every hand-written source file, tests and scripts included
/** @param {string} dir @returns {string[]} */
function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return ['node_modules', 'out', 'dist'].includes(d.name) ? [] : sources(p);
    return /\.(ts|mts|mjs|js|css)$/.test(d.name) && !d.name.endsWith('.gen.ts') && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}
for (const f of [...TREES, 'test', 'scripts'].flatMap((t) => sources(path.join(ROOT, t)))) {
  const lines = fs.readFileSync(f, 'utf8').split('\n').length;
  if (lines > MAX_LINES) problems.push(`${rel(f)} has ${lines} lines (at most ${MAX_LINES})`);
}

// 5. zod/mini only, outside the Demo agent's own bundle and the editor's MCP server (a lazily loaded bundle whose
//    MCP SDK brings classic zod anyway: docs/editor-tools.md)
const classicZodAllowed = ['src/demoAgent/', 'src/host/lifecycle/editorTools/editorMcpServer.ts'];
for (const f of files) {
  if (classicZodAllowed.some((p) => rel(f).startsWith(p))) continue;
  for (const m of fs.readFileSync(f, 'utf8').matchAll(importRe)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? '';
    if ((spec === 'zod' || spec.startsWith('zod/')) && spec !== 'zod/mini' && spec !== 'zod/v4/core') {
      problems.push(`${rel(f)} imports '${spec}': use 'zod/mini' (the classic API would bring all of zod into the bundle)`);
    }
  }
  // the named export `z` is zod/mini's whole namespace as one object: bundled, it keeps all of zod's core
  // (JSON Schema, every check), 115 KB more than `import * as z`, whose unused members esbuild drops
  if (/import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod\/mini['"]/.test(fs.readFileSync(f, 'utf8'))) {
    problems.push(`${rel(f)} imports { z } from 'zod/mini': use \`import * as z from 'zod/mini'\` (the named z keeps all of zod in the bundle)`);
  }
}

const edges = [...graph.values()].reduce((n, d) => n + d.length, 0);
if (problems.length) {
  console.error(problems.map((p) => `✗ ${p}`).join('\n'));
  console.error(`\n${problems.length} layering problem(s) in ${graph.size} files (${edges} imports)`);
  process.exit(1);
}
console.log(`layers ok: ${graph.size} files, ${edges} imports, no circles outside src/demoAgent, no upward imports, src/host has ${hostEntries.length} entries, no file over ${MAX_LINES} lines, zod/mini only`);
