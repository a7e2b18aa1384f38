// @ts-check
// The UI modules (test/ui/*.ui.mjs, or SWITCHBOARD_UI_DIR) and the compatibility subset, for runUi.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, readCompatSubset } from './harness.mjs';

/** @typedef {import('./uiTest.mjs').UiTest} UiTest */

/** SWITCHBOARD_UI_DIR runs the modules of another folder (the harness's own checks use it). */
export const UI_DIR = path.resolve(process.env.SWITCHBOARD_UI_DIR || path.join(REPO_ROOT, 'test', 'ui'));

/**
 * @typedef {object} UiModule
 * @property {string} name
 * @property {string} file
 * @property {(t: UiTest) => Promise<void>} run
 * @property {Record<string, unknown>} settings
 * @property {Record<string, string>} env
 * @property {Record<string, string> | undefined} files
 * @property {number} timeout
 * @property {'disabled' | 'untrusted'} trust
 * @property {boolean} sharedWindow
 */
/**
 * The modules of the UI folder whose name matches `grep`.
 * @param {string} [grep]
 */
export async function loadModules(grep) {
  if (!fs.existsSync(UI_DIR)) return [];
  const files = fs.readdirSync(UI_DIR).filter((f) => f.endsWith('.ui.mjs')).sort();
  /** @type {UiModule[]} */
  const mods = [];
  for (const f of files) {
    const file = path.join(UI_DIR, f);
    const m = await import(pathToFileURL(file).href);
    if (typeof m.run !== 'function') throw new Error(`${file} does not export async function run(t)`);
    mods.push({
      name: String(m.name ?? f.replace(/\.ui\.mjs$/, '')),
      file, run: m.run, settings: m.settings ?? {}, env: m.env ?? {}, files: m.files,
      timeout: Number(m.timeout ?? 120_000),
      trust: m.trust === 'untrusted' ? 'untrusted' : 'disabled',
      sharedWindow: m.sharedWindow === true && process.env.SWITCHBOARD_UI_SHARE !== '0',
    });
  }
  const re = grep ? new RegExp(grep) : undefined;
  return mods.filter((m) => !re || re.test(m.name));
}


/**
 * The compatibility subset (compatSubset.mjs beside the modules), or undefined when the folder has none.
 * A name that matches no module is an error, so that a renamed test does not silently leave the subset.
 * @param {UiModule[]} modules
 * @param {string} [grep]  only some modules were loaded: names that match none are no error
 * @returns {Promise<Record<string, string> | undefined>}
 */
export function loadSubset(modules, grep) {
  return readCompatSubset(path.join(UI_DIR, 'compatSubset.mjs'), grep ? undefined : (n) => modules.some((m) => m.name === n));
}
