// @ts-check
// Starting VS Code: code-server, or the VS Code server with the smoke-test driver, offline and quiet.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { log, payloadNeedsSmokeTestDriver, requireInstallation } from './base.mjs';
import { cleanups, disown, killTree, makeTmp, own, sleep } from './processes.mjs';
import { freePort, makeWorkspace } from './workspace.mjs';

// ------------------------------------------------------------------------------------------------
// the server

/** User settings that keep the workbench quiet, offline and deterministic. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.colorTheme': 'Default Dark Modern',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'files.autoSave': 'off',
  'editor.minimap.enabled': false,
  'terminal.integrated.enablePersistentSessions': false,
};

/**
 * User settings of the test runs (UI and integration), not of `npm start`: the scripted agents of the older tests
 * write files and start commands without asking, which is not what those tests are about, so a write or command
 * that no answer covers runs (docs/approvals.md). The approval tests set `ask`, the product's default, themselves.
 */
export const TEST_SETTINGS = {
  'switchboard.permissions.uncoveredActions': 'allow',
};

/**
 * @typedef {object} ServerOptions
 * @property {string} version                       VS Code version (see versions.json)
 * @property {'code-server' | 'vscode-server'} [mode]  code-server CLI, or VS Code's server-main.js
 * @property {boolean} [smokeTestDriver]            vscode-server mode: pass --enable-smoke-test-driver
 *   (needed for the URL payload on VS Code > 1.117; hides toasts). Default: true in vscode-server mode.
 * @property {boolean} [forPayload]                 the caller will load the extension through the URL
 *   payload: picks vscode-server mode + smoke-test driver where the version needs it
 * @property {Record<string, unknown>} [settings]    merged over QUIET_SETTINGS into User/settings.json
 * @property {'disabled' | 'untrusted'} [trust]      workspace trust: 'disabled' (default: everything is
 *   trusted), or 'untrusted': trust enabled, no startup prompt, so the workspace opens in Restricted Mode
 * @property {boolean} [keepUserSettings]           leave an existing User/settings.json alone (npm start)
 * @property {Record<string, string>} [env]          extra env for the server (the extension host inherits it)
 * @property {string} [extensionsDir]                default: a fresh temp dir
 * @property {string} [userDataDir]                  default: a fresh temp dir
 * @property {string} [workspace]                    default folder; default: a fresh sample workspace
 * @property {string} [host]                         default 127.0.0.1
 * @property {number} [port]                         default: a free port
 * @property {string[]} [extraArgs]
 * @property {number} [startTimeoutMs]               default 60 s
 * @property {boolean} [quiet]                       no log lines
 */

/**
 * @typedef {object} Server
 * @property {string} version
 * @property {'code-server' | 'vscode-server'} mode
 * @property {boolean} smokeTestDriver
 * @property {string} host
 * @property {number} port
 * @property {string} authority                 host:port the page is loaded from
 * @property {{ root: string, userData: string, extensions: string, workspace: string }} dirs
 * @property {string} serverLog
 * @property {import('node:child_process').ChildProcess} proc
 * @property {number} startMs                   time until HTTP answered
 * @property {(p: string) => string} remote     vscode-remote:// URI of a server path
 * @property {(o?: { payload?: [string, string][], folder?: string }) => string} url
 * @property {(n?: number) => string} logTail
 * @property {(settings: Record<string, unknown>) => void} writeSettings  User/settings.json, which a window reads
 *   when it loads (code-server stops seeing a change made from outside some seconds later)
 * @property {() => Promise<void>} stop
 */

/**
 * Starts the VS Code server of a code-server install, on a free port, with throwaway dirs, quiet user
 * settings, no marketplace. Resolves once HTTP answers.
 * @param {ServerOptions} o
 * @returns {Promise<Server>}
 */
export async function startServer(o) {
  const inst = requireInstallation(o.version);
  const say = o.quiet ? () => {} : log;
  const mode = o.mode ?? (o.forPayload && payloadNeedsSmokeTestDriver(inst.version) ? 'vscode-server' : 'code-server');
  const smokeTestDriver = mode === 'vscode-server' && (o.smokeTestDriver ?? true);
  const root = makeTmp(`sb-vscode-${inst.version}-`);
  const dirs = {
    root,
    userData: o.userDataDir ?? path.join(root, 'user-data'),
    extensions: o.extensionsDir ?? path.join(root, 'extensions'),
    workspace: o.workspace ?? makeWorkspace(path.join(root, 'workspace')),
  };
  const xdg = path.join(root, 'xdg');
  const tmpdir = path.join(root, 'tmp');
  for (const d of [dirs.userData, dirs.extensions, dirs.workspace, xdg, tmpdir, path.join(dirs.userData, 'User')]) fs.mkdirSync(d, { recursive: true });
  const untrusted = o.trust === 'untrusted';
  /** Settings that turn workspace trust on without the startup dialog: the workspace stays untrusted. */
  const trustSettings = untrusted ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {};
  const disableTrust = untrusted ? [] : ['--disable-workspace-trust'];
  const writeSettings = (/** @type {Record<string, unknown>} */ s) =>
    fs.writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trustSettings, ...s }, null, 2));
  if (!(o.keepUserSettings && fs.existsSync(path.join(dirs.userData, 'User', 'settings.json')))) writeSettings(o.settings ?? {});

  const host = o.host ?? '127.0.0.1';
  const port = o.port ?? (await freePort(host === '0.0.0.0' ? '127.0.0.1' : host));
  /** @type {string[]} */
  let args;
  if (mode === 'code-server') {
    const cfg = path.join(root, 'config.yaml');
    fs.writeFileSync(cfg, 'auth: none\ncert: false\n');
    args = [path.join(inst.pkg, 'out', 'node', 'entry.js'),
      '--config', cfg, '--bind-addr', `${host}:${port}`, '--auth', 'none',
      '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
      '--disable-telemetry', '--disable-update-check', ...disableTrust,
      '--disable-getting-started-override', '--ignore-last-opened',
      ...(o.extraArgs ?? []), dirs.workspace];
  } else {
    args = [path.join(inst.pkg, 'lib', 'vscode', 'out', 'server-main.js'),
      '--host', host, '--port', String(port), '--without-connection-token', '--accept-server-license-terms',
      ...(smokeTestDriver ? ['--enable-smoke-test-driver'] : []),
      '--telemetry-level', 'off', ...disableTrust,
      '--server-data-dir', path.join(root, 'server-data'), '--user-data-dir', dirs.userData,
      '--extensions-dir', dirs.extensions, '--default-folder', dirs.workspace,
      ...(o.extraArgs ?? [])];
  }
  const serverLog = path.join(root, 'server.log');
  const out = fs.openSync(serverLog, 'a');
  const t0 = Date.now();
  const proc = spawn(inst.node, args, {
    cwd: root,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg, XDG_CACHE_HOME: xdg,
      // VS Code leaves vscode-ipc-*.sock files in the temp dir: keep them in ours, which stop() removes
      TMPDIR: tmpdir,
      // the marketplace is unreachable here: an empty serviceUrl switches the gallery off
      EXTENSIONS_GALLERY: '{"serviceUrl":""}',
      ...(o.env ?? {}),
    },
    stdio: ['ignore', out, out],
    detached: true, // own process group, so stop() can signal the whole tree
  });
  fs.closeSync(out);
  if (!proc.pid) throw new Error(`could not spawn ${inst.node}`);
  const pid = proc.pid;
  own(pid);
  /** @type {{ code: number | null, signal: string | null } | undefined} */
  let exited;
  proc.on('exit', (code, signal) => { exited = { code, signal }; });
  const logTail = (n = 40) => { try { return fs.readFileSync(serverLog, 'utf8').split('\n').slice(-n).join('\n'); } catch { return '(no server log)'; } };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    cleanups.delete(stop);
    await killTree(pid);
    disown(pid);
  };
  cleanups.add(stop);
  say(`VS Code ${inst.version} (code-server ${inst.codeServer}, ${mode}${smokeTestDriver ? ' + smoke-test driver' : ''}, node ${inst.node === process.execPath ? process.version : inst.node}) pid ${pid} on ${host}:${port}`);

  const probeHost = host === '0.0.0.0' ? '127.0.0.1' : host;
  const probe = `http://${probeHost}:${port}/${mode === 'code-server' ? 'healthz' : 'version'}`;
  const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the server exited early (${JSON.stringify(exited)}); log ${serverLog}:\n${logTail(60)}`);
    }
    try {
      const r = await fetch(probe, { signal: AbortSignal.timeout(2000) });
      if (r.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer ${probe} within ${(o.startTimeoutMs ?? 60_000) / 1000}s; log:\n${logTail(60)}`);
    }
    await sleep(100);
  }
  const startMs = Date.now() - t0;
  say(`server answers HTTP after ${startMs} ms; log ${serverLog}`);

  const authority = `${probeHost}:${port}`;
  return {
    version: inst.version, mode, smokeTestDriver, host, port, authority, dirs, serverLog, proc, startMs,
    remote: (p) => `vscode-remote://${authority}${path.resolve(p)}`,
    url: ({ payload = [], folder = dirs.workspace } = {}) => {
      const q = new URLSearchParams({ folder });
      const all = [...payload, ['skipWelcome', 'true'], ['skipReleaseNotes', 'true']];
      q.set('payload', JSON.stringify(all));
      return `http://${authority}/?${q}`;
    },
    logTail, writeSettings, stop,
  };
}
