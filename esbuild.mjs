// @ts-check
// Builds Switchboard. Two product bundles (the host and the webview, see docs/architecture.md#layers):
//   extension: src/extension.ts  -> dist/extension.js   (node, cjs, `vscode` external)
//   webview:   webview/main.ts   -> dist/webview/main.js (browser, iife)
// plus the compare view of "Ask Several Agents…", a small page of its own:
//   compare:   webview/compare/main.ts -> dist/webview/compare.js + compare.css (browser, iife)
// plus the packaged offline Demo agent (dist/agents/demoAgent.js, node, cjs) and the process watchdog
// (dist/agents/watchdog.js), and, with --tests, the test tree transpiled file by file into out/ (unit +
// integration tests, benchmarks, scripted agents).
//
//   node esbuild.mjs               dev build: sourcemaps
//   node esbuild.mjs --production  minified, no sourcesContent
//   node esbuild.mjs --watch       dev build, rebuild on change
//   node esbuild.mjs --tests       also build out/ for the test pipeline
//   node esbuild.mjs --outdir DIR  product bundles into DIR instead of dist/
//   node esbuild.mjs --metafile    also write the host bundles' metafile to DIR/host.meta.json (what each
//                                  module weighs in each output: docs/performance.md, "Start fast, ship small")
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
// --outdir DIR: where the product bundles go instead of dist/ (npm run package builds into a staging folder)
const outdirArg = process.argv.indexOf('--outdir');
const dist = outdirArg !== -1 && process.argv[outdirArg + 1] ? process.argv[outdirArg + 1] : 'dist';
const metafile = process.argv.includes('--metafile');

/** Prints build start/end in the format of the `$esbuild-watch` problem matcher. */
const problemMatcher = {
  name: 'problem-matcher',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    build.onStart(() => { if (watch) console.log('[watch] build started'); });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

/**
 * zod's `z` namespace re-exports every error-message locale (`z.locales`, about 216 KB minified, a quarter of
 * the extension bundle); Switchboard validates with zod's default English messages only, so the namespace
 * keeps just `en`. Parsing and validation are unchanged (docs/performance.md, "Start fast, ship small").
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer)
      ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
      : undefined));
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`, loader: 'js', resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * src/acp/events.ts re-exports vscode-jsonrpc's Emitter, CancellationTokenSource and Disposable for the layers that
 * may not use `vscode`. The package's entry points each load all of it (62 KB minified), so in the bundles these
 * come from its three small modules instead, and the rest of vscode-jsonrpc stays in the part that speaks JSON-RPC
 * (src/acp/connection.ts, loaded when the first agent connects: docs/performance.md, "Start fast, ship small"). The two
 * runtime services those modules use (an error log and a 0 ms timer) are installed as vscode-jsonrpc's node runtime
 * installs them. Unbundled (out/, the tests), events.ts loads the package as usual.
 */
const jsonrpcEventsOnly = {
  name: 'jsonrpc-events-only',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    const lib = path.join(path.dirname(require.resolve('vscode-jsonrpc')), '..');
    build.onResolve({ filter: /^vscode-jsonrpc$/ }, (args) => (args.importer.endsWith(path.join('src', 'acp', 'events.ts'))
      ? { path: 'vscode-jsonrpc-events', namespace: 'jsonrpc-events' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'jsonrpc-events' }, () => ({
      resolveDir: lib, loader: 'js',
      contents: [
        `import RAL from ${JSON.stringify(path.join(lib, 'common', 'ral.js'))};`,
        `export { Emitter } from ${JSON.stringify(path.join(lib, 'common', 'events.js'))};`,
        `export { CancellationToken, CancellationTokenSource } from ${JSON.stringify(path.join(lib, 'common', 'cancellation.js'))};`,
        `export { Disposable } from ${JSON.stringify(path.join(lib, 'common', 'disposable.js'))};`,
        // lib/node/ril.js: `console`, and timers whose handles are disposables
        'const timer = (set, clear) => (...args) => { const handle = set(...args); return { dispose: () => clear(handle) }; };',
        'try { RAL(); } catch { RAL.install({ console, timer: { setTimeout: timer(setTimeout, clearTimeout), setImmediate: timer(setImmediate, clearImmediate), setInterval: timer(setInterval, clearInterval) } }); }',
      ].join('\n'),
    }));
  },
};

/**
 * Parts of the extension loaded on first use, not at activation (docs/performance.md, "Start fast, ship
 * small"): `await import('./x.js')` or `require('./x')` of one of these files is bundled as its own file,
 * dist/<name>.js, and required when the import runs. Unbundled (out/, the tests), the same import loads
 * out/…/x.js as usual. The core is everything but activation's stubs (src/extension.ts); the registry's
 * commands load on their first run. A module state that every part must share lives on `globalThis`
 * (src/shared/inertText.ts, the secret masker): each part has its own copy of the modules it imports.
 */
const lazyModules = {
  core: 'src/core.ts', registry: 'src/workbench/registry/registryCommands.ts', archiveExtract: 'src/registry/archiveExtract.ts',
  // the permission rules' shell parser (web-tree-sitter): loaded at the first rule or permission card
  shellParser: 'src/host/permissions/rules/shellParser.ts',
  // the rules' glob matcher (picomatch): required when the first read, write, MCP tool or host rule is compiled
  globMatcher: 'src/host/permissions/rules/globMatcher.ts',
  // the checkpoints' store and a session's checkpoints (shadow git repositories): when a session first needs them
  checkpoints: 'src/checkpoints/engine.ts',
  // Add Agent (its form and its command checks): when the command first runs
  addAgent: 'src/workbench/agents/addAgent.ts',
  // Ask Several Agents and its compare views: at the command, or when a compare view is restored after a reload
  fanOut: 'src/workbench/worktrees/fanOut.ts',
  // the editor's MCP server and its tools (the MCP SDK): loaded at the first request an agent sends it
  editorTools: 'src/host/lifecycle/editorTools/editorMcpServer.ts',
  // ACP v2 (its schemas and the dialect): loaded when an agent starts with switchboard.experimental.protocolV2 on
  acpV2: 'src/acp/v2/v2Dialect.ts',
  // an ACP connection (vscode-jsonrpc, the framing, the ACP schemas and the zod they build on): when the first agent
  // connects, or a stored session is shown
  acpConnection: 'src/acp/connection.ts',
  // commands and forms a session may never use: at their first use
  manageRules: 'src/workbench/rules/manageRules.ts', ruleEditor: 'src/host/permissions/ruleEditor.ts',
  reviewChanges: 'src/workbench/review/reviewChanges.ts', providerFlow: 'src/workbench/agents/providerFlow.ts',
  checkpointActions: 'src/host/files/checkpointActions.ts',
  // the ACP remote transport (the SDK's WebSocket and HTTP clients, `ws`): loaded when such an agent connects
  remoteStream: 'src/agents/streamChannel.ts',
};
/**
 * Packages of the host required on first use, `require('name')` (an `import` of them still bundles them): each is
 * its own file, dist/<name>.js. `diff`: the file-edit hunks, the changed files' counts and Follow Agent's spot.
 */
const lazyPackages = { diff: 'diff' };
const require = createRequire(import.meta.url);
/** The Demo agent's parts loaded on first use: the MCP client of its `mcp` step (dist/agents/mcpSteps.js). */
const agentLazyModules = { mcpSteps: 'src/demoAgent/mcpSteps.ts' };
/** @param {Record<string, string>} modules @param {Record<string, string>} [packages] */
const lazyEntriesOf = (modules, packages = {}) => ({
  name: 'lazy-entries',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    const files = new Map(Object.entries(modules).map(([name, file]) => [path.resolve(file).replace(/\.ts$/, ''), name]));
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import' && args.kind !== 'require-call') return undefined;
      const name = files.get(path.resolve(args.resolveDir, args.path).replace(/\.[jt]s$/, ''));
      return name ? { path: `./${name}.js`, external: true } : undefined;
    });
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind !== 'require-call' || !Object.hasOwn(packages, args.path)) return undefined;
      // the lazy part is dist/<name>.js, next to the bundle that requires it
      return { path: `./${packages[args.path]}.js`, external: true };
    });
  },
});
const lazyEntries = lazyEntriesOf(lazyModules, lazyPackages);

/**
 * The webview's codicon.css keeps only the icons the chat can show (docs/performance.md, "Start fast, ship
 * small"): the full file has 650 `.codicon-<name>:before` rules (29 KB of the webview's CSS). An icon is in
 * use when its name is a quoted string, or follows `codicon-`, in the webview's sources or in what the host
 * sends it ({@link codiconSources}: e.g. src/thread/view/welcomeView.ts names icons). A prefix before an interpolation,
 * `codicon-chevron-${…}`, is joined with every quoted string. UI tests check that every icon on screen has
 * its glyph (test/ui/scriptedSession.mjs, expectGlyphs).
 */
/** Where the chat's icon names come from: the webview, and the host's view models and chat wire. */
const codiconSources = ['webview', 'src/shared', 'src/thread/view', 'src/chatHost'];
const codiconsInUse = {
  name: 'codicons-in-use',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    build.onLoad({ filter: /[\\/]@vscode[\\/]codicons[\\/]dist[\\/]codicon\.css$/ }, (args) => {
      const names = new Set();
      const prefixes = new Set(['']);
      const sources = codiconSources.flatMap((d) => fs.readdirSync(d, { recursive: true }).map((f) => path.join(d, String(f))))
        // the compare view's page (webview/compare) is its own bundle and shows no codicon
        .filter((f) => /\.(ts|css)$/.test(f) && !f.startsWith(path.join('webview', 'compare')));
      for (const f of sources) {
        // whole-line and leading block comments name things in `backticks` that are not icons
        const text = fs.readFileSync(f, 'utf8').replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
        // a quoted name, but not a module's (`from 'vscode'`)
        for (const m of text.matchAll(/(?<!(?:from|import) )['"`]([a-z][a-z0-9-]*)['"`]/g)) names.add(m[1]);
        for (const m of text.matchAll(/codicon-([a-z0-9-]+)/g)) names.add(m[1]);
        for (const m of text.matchAll(/codicon-([a-z0-9-]*-)\$\{/g)) prefixes.add(m[1]);
      }
      const inUse = (/** @type {string} */ name) => [...prefixes].some((p) => name.startsWith(p) && names.has(name.slice(p.length)));
      const css = fs.readFileSync(args.path, 'utf8').split('\n')
        .filter((line) => { const m = /^\.codicon-([a-z0-9-]+):before \{/.exec(line); return !m || inUse(m[1]); })
        .join('\n');
      return { contents: css, loader: 'css', resolveDir: path.dirname(args.path), watchFiles: sources };
    });
  },
};

/**
 * The shell parser of the permission rules (src/host/permissions/rules/shellParser.ts) reads web-tree-sitter's
 * runtime and the bash grammar as .wasm files from the extension's folder: every build of the extension copies
 * them into dist/ (shipped by .vscodeignore's `!dist/*.wasm`).
 */
const wasmFiles = ['node_modules/web-tree-sitter/tree-sitter.wasm', 'node_modules/tree-sitter-bash/tree-sitter-bash.wasm'];
const copyWasm = {
  name: 'copy-wasm',
  /** @param {esbuild.PluginBuild} build */
  setup(build) {
    build.onEnd(() => {
      fs.mkdirSync(dist, { recursive: true });
      for (const f of wasmFiles) fs.copyFileSync(f, path.join(dist, path.basename(f)));
    });
  },
};

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: production ? 'none' : 'inline',
  plugins: [problemMatcher, zodEnglishOnly],
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension.ts', ...lazyModules, ...Object.fromEntries(Object.entries(lazyPackages).map(([pkg, name]) => [name, require.resolve(pkg)])) },
    outdir: dist,
    metafile,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // ws's optional native speed-ups, which it loads in a try: not installed, not bundled
    external: ['vscode', 'bufferutil', 'utf-8-validate'],
    plugins: [...(common.plugins ?? []), jsonrpcEventsOnly, lazyEntries, copyWasm],
    // import() of a lazy part becomes require() of its file (VS Code loads the extension as CommonJS)
    supported: { 'dynamic-import': false },
    // web-tree-sitter's ESM build (its `import` export) does not work bundled into CommonJS (it relies on
    // import.meta.url and top-level await): bundle its CommonJS build, which its package exports only to require()
    alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' },
  },
  {
    ...common,
    // the packaged Demo agent, and the watchdog that ends the agents when the extension host dies
    // and the stdio bridge to the editor's MCP server, for agents that take no MCP over HTTP (docs/editor-tools.md)
    entryPoints: {
      'agents/demoAgent': 'src/demoAgent/main.ts', 'agents/watchdog': 'src/agents/watchdogMain.ts', 'agents/mcpBridge': 'src/agents/mcpBridgeMain.ts',
      ...Object.fromEntries(Object.entries(agentLazyModules).map(([name, file]) => [`agents/${name}`, file])),
    },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [...(common.plugins ?? []), lazyEntriesOf(agentLazyModules)],
    supported: { 'dynamic-import': false },
  },
  {
    ...common,
    entryPoints: { main: 'webview/main.ts' },
    outdir: `${dist}/webview`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    // markdown-it only decodes entities, one matched `&…;` at a time: the browser's parser does it
    // (webview/lib/entityDecode.ts) instead of the package's 50 KB tables; and the URL parser converts link
    // hosts to ASCII (webview/lib/punycode.ts) instead of punycode.js
    alias: { entities: './webview/lib/entityDecode.ts', 'punycode.js': './webview/lib/punycode.ts' },
    // the page is UTF-8 (<meta charset>, src/chatHost/html.ts): '·' or '…' as themselves, not as \u00b7
    charset: 'utf8',
    loader: { '.css': 'css', '.ttf': 'file' },
    plugins: [...(common.plugins ?? []), codiconsInUse],
  },
  {
    ...common,
    // the compare view's own page (webview/compare/main.ts): no toolkit, no Markdown, no codicons, a few KB
    // (test/harness/packageCheck.mjs holds it to 40 KB)
    entryPoints: { compare: 'webview/compare/main.ts' },
    outdir: `${dist}/webview`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    charset: 'utf8',
    loader: { '.css': 'css' },
  },
];

/** Lists .ts files below a folder (tests and sources are transpiled one by one into out/). */
function tsFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: false })
    .map((f) => path.join(dir, String(f)))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
}

const scriptedAgentEntries = ['test/fixtures/agents/scriptedAgent.ts', 'test/fixtures/agents/acpServer.ts', 'test/fixtures/agents/lifetimeAgent.ts', 'test/fixtures/agents/v2Agent.ts'];
if (tests) {
  builds.push({
    // webview/ too: its pure modules (store, lib/, the transcript classes) are unit-tested in plain node
    // (the scripted agents' entry files are the bundles below: transpiled here too, one build would overwrite the other)
    entryPoints: [...tsFiles('src'), ...tsFiles('test').filter((f) => !scriptedAgentEntries.includes(f.split(path.sep).join('/'))), ...tsFiles('webview')],
    outdir: 'out',
    outbase: '.',
    bundle: false,
    // a lazily loaded part, `await import('./x')`, is required from out/ as its CommonJS file
    supported: { 'dynamic-import': false },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'warning',
    plugins: [problemMatcher],
  });
  // scripted ACP agents run as their own processes: bundle them so they start fast
  builds.push({
    ...common,
    minify: false,
    entryPoints: Object.fromEntries(scriptedAgentEntries.map((f) => [f.replace(/\.ts$/, ''), f])),
    outdir: 'out',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  });
}

const contexts = await Promise.all(builds.filter((b) => {
  const entries = Object.values(/** @type {Record<string,string>} */ (b.entryPoints ?? {}));
  return Array.isArray(b.entryPoints) ? b.entryPoints.length > 0 : entries.every((e) => fs.existsSync(e));
}).map((b) => esbuild.context(b)));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  try {
    const results = await Promise.all(contexts.map((c) => c.rebuild()));
    if (metafile && results[0].metafile) fs.writeFileSync(path.join(dist, 'host.meta.json'), JSON.stringify(results[0].metafile));
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
}
