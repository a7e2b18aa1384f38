// @ts-check
// Free ports, sample workspaces, and loading the extension (a link or a .vsix).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { EXTENSION_ROOT, requireInstallation } from './base.mjs';
import { makeTmp } from './processes.mjs';

// ------------------------------------------------------------------------------------------------
// temporary dirs, ports, workspaces


/** A free TCP port on host. @param {string} [host] @returns {Promise<number>} */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether a port can be bound on host. @param {number} port @param {string} host @returns {Promise<boolean>} */
export function portIsFree(port, host) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** Files of the sample workspace the tests open. */
export const SAMPLE_FILES = {
  'README.md': '# Sample project\n\nA small workspace opened by the Switchboard tests.\n',
  'src/hello.ts': 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  'src/math.ts': 'export const add = (a: number, b: number): number => a + b;\n',
  'notes.txt': 'line 1\nline 2\nline 3\n',
};

/**
 * Writes files (relative path -> content) below dir (made if missing). Returns dir.
 * @param {string} dir
 * @param {Record<string, string>} [files]
 */
export function makeWorkspace(dir, files = SAMPLE_FILES) {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  return dir;
}

// ------------------------------------------------------------------------------------------------
// the extension

/** @param {string} [extRoot] @returns {{ publisher: string, name: string, version: string, id: string, [k: string]: unknown }} */
export function extensionManifest(extRoot = EXTENSION_ROOT) {
  const pj = JSON.parse(fs.readFileSync(path.join(extRoot, 'package.json'), 'utf8'));
  return { ...pj, id: `${pj.publisher}.${pj.name}` };
}

/**
 * Installs an extension folder by symlinking it into an extensions dir as publisher.name-version
 * (a normal install: no payload needed, toasts show). Returns the link path.
 * @param {string} extensionsDir
 * @param {string} [extRoot]
 */
export function linkExtension(extensionsDir, extRoot = EXTENSION_ROOT) {
  const m = extensionManifest(extRoot);
  const dest = path.join(extensionsDir, `${m.publisher}.${m.name}-${m.version}`.toLowerCase());
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.rmSync(dest, { recursive: true, force: true });
  fs.symlinkSync(path.resolve(extRoot), dest, 'dir');
  return dest;
}

/**
 * Installs a .vsix into an extensions dir with the server's own --install-extension (offline).
 * @param {string} version VS Code version
 * @param {string} vsix
 * @param {string} extensionsDir
 * @returns {string} the CLI output
 */
export function installVsix(version, vsix, extensionsDir) {
  const inst = requireInstallation(version);
  const tmp = makeTmp('sb-vsix-');
  const args = [path.join(inst.pkg, 'lib', 'vscode', 'out', 'server-main.js'), '--accept-server-license-terms',
    '--server-data-dir', path.join(tmp, 'server-data'), '--user-data-dir', path.join(tmp, 'user-data'),
    '--extensions-dir', extensionsDir, '--install-extension', path.resolve(vsix), '--force'];
  const r = spawnSync(inst.node, args, {
    env: { ...process.env, XDG_CONFIG_HOME: tmp, XDG_DATA_HOME: tmp, XDG_CACHE_HOME: tmp, EXTENSIONS_GALLERY: '{"serviceUrl":""}' },
    encoding: 'utf8', timeout: 120_000,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`--install-extension ${vsix} failed (exit ${r.status ?? r.signal}):\n${out}`);
  return out;
}
