#!/usr/bin/env node
// @ts-check
// `npm start` (after `node esbuild.mjs`): VS Code 1.139.1 (code-server 4.139.1) in your browser, with
// Switchboard installed from this folder (a symlink in the extensions dir: rebuild and reload the window
// to see changes), opening a small sample project. Stays in the foreground until Ctrl+C.
//
//   npm start                      # http://127.0.0.1:8080 (or a free port if 8080 is busy)
//   PORT=9000 npm start
//   HOST=0.0.0.0 npm start         # reachable from outside a container (no password: trusted networks only)
//   SWITCHBOARD_VSCODE_VERSION=1.100.3 npm start
//
// The sample project starts clean on every run (SWITCHBOARD_KEEP_SAMPLE=1 keeps what the last run left in
// it); user settings and the extensions dir live under ${SWITCHBOARD_CACHE:-~/.cache/switchboard}/start and
// survive restarts. The Welcome page opens with the walkthroughs, Switchboard's among them. Runs setup.sh
// first if code-server is not installed yet.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CACHE_DIR, EXTENSION_ROOT, SAMPLE_FILES, ensureInstalled, extensionManifest, freePort, linkExtension,
  makeWorkspace, portIsFree, QUIET_SETTINGS, removeTmpDirs, resolveVersions, startServer,
} from './harness.mjs';

const [version] = resolveVersions(process.env.SWITCHBOARD_VSCODE_VERSION || '1.139.1');
const host = process.env.HOST || '127.0.0.1';
const wanted = Number(process.env.PORT || 8080);

try {
  ensureInstalled(version);
  if (!fs.existsSync(path.join(EXTENSION_ROOT, 'dist', 'extension.js'))) {
    console.warn(`warning: ${path.join(EXTENSION_ROOT, 'dist', 'extension.js')} does not exist: run node esbuild.mjs (npm start does)`);
  }
  const base = path.join(CACHE_DIR, 'start');
  const workspace = path.join(base, 'sample-project');
  const keepSample = process.env.SWITCHBOARD_KEEP_SAMPLE === '1';
  if (!keepSample) fs.rmSync(workspace, { recursive: true, force: true }); // no demo files from the last run
  if (!fs.existsSync(workspace)) {
    makeWorkspace(workspace, {
      ...SAMPLE_FILES,
      'package.json': '{\n  "name": "sample-project",\n  "private": true,\n  "version": "0.0.1"\n}\n',
      'src/index.ts': "import { hello } from './hello';\n\nconsole.log(hello('Switchboard'));\n",
    });
    // a git repository with one commit, so that Start Session in Worktree and Ask Several Agents work at once
    // (docs/worktrees.md); without git the project is still a plain folder
    const git = spawnSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: workspace });
    if (git.status === 0) {
      spawnSync('git', ['add', '-A'], { cwd: workspace });
      spawnSync('git', ['-c', 'user.name=Switchboard', '-c', 'user.email=sample@switchboard.invalid', 'commit', '-qm', 'The sample project'], { cwd: workspace });
    }
    console.log(`${keepSample ? 'created' : 'a clean sample project:'} ${workspace}`);
  }
  showWelcome(path.join(base, 'user-data', 'User', 'settings.json'));
  const extensionsDir = path.join(base, 'extensions');
  // drop links to older versions of this extension, then link the current one
  const m = extensionManifest();
  if (fs.existsSync(extensionsDir)) {
    for (const f of fs.readdirSync(extensionsDir)) {
      if (f.startsWith(`${m.publisher}.${m.name}-`.toLowerCase())) fs.rmSync(path.join(extensionsDir, f), { recursive: true, force: true });
    }
    fs.rmSync(path.join(extensionsDir, 'extensions.json'), { force: true }); // VS Code rescans
  }
  linkExtension(extensionsDir);

  const probeHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  let port = wanted;
  if (!(await portIsFree(port, host))) {
    port = await freePort(probeHost);
    console.log(`port ${wanted} is busy; using ${port}`);
  }
  const server = await startServer({
    version, mode: 'code-server', host, port, workspace, extensionsDir,
    userDataDir: path.join(base, 'user-data'), keepUserSettings: true, quiet: true, startTimeoutMs: 120_000,
  });
  const folder = /^[\w/.-]+$/.test(workspace) ? workspace : encodeURIComponent(workspace);
  const url = `http://${probeHost}:${server.port}/?folder=${folder}`;
  console.log(`\nSwitchboard is running: open ${url}`);
  console.log(`(VS Code ${version} via code-server; extension ${m.id} ${m.version} linked from ${EXTENSION_ROOT}; ` +
    `server log ${server.serverLog}${host === '0.0.0.0' ? '; listening on all interfaces WITHOUT a password' : ''})`);
  console.log('Press Ctrl+C to stop.\n');

  let stopping = false;
  const stop = async (/** @type {string} */ why, /** @type {number} */ code) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${why}: stopping the server…`);
    await server.stop();
    removeTmpDirs();
    process.exit(code);
  };
  process.on('SIGINT', () => { void stop('Ctrl+C', 0); });
  process.on('SIGTERM', () => { void stop('SIGTERM', 0); });
  server.proc.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`the server exited (${signal ?? `code ${code}`}); last lines of its log:\n${server.logTail(30)}`);
    void stop('server exited', 1);
  });
} catch (e) {
  console.error(`npm start failed: ${e instanceof Error ? e.message : e}`);
  removeTmpDirs();
  process.exit(1);
}

/**
 * The quiet test settings hide the Welcome page and the walkthroughs; a person who runs `npm start` should
 * see them (Switchboard's walkthrough is how a newcomer starts). Other settings they changed stay.
 * @param {string} file User/settings.json of the start profile
 */
function showWelcome(file) {
  /** @type {Record<string, unknown>} */
  let settings = {};
  if (fs.existsSync(file)) {
    try {
      settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return; // edited by hand (comments): leave it as it is
    }
  }
  const welcome = { 'workbench.startupEditor': 'welcomePage', 'workbench.welcomePage.walkthroughs.openOnInstall': true };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...QUIET_SETTINGS, ...settings, ...welcome }, null, 2));
}
