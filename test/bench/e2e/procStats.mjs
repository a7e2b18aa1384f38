// @ts-check
// CPU time and memory of the processes the end-to-end bench measures, read from /proc (Linux): the extension
// host (a child of the VS Code server) and Chromium's renderer processes.
import fs from 'node:fs';
import { processTree } from '../../harness/harness.mjs';

const ticksPerSecond = 100; // USER_HZ: 100 on every Linux this runs on

/** @param {number} pid */
function cmdline(pid) {
  try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'); } catch { return []; }
}

/** User + system CPU time of a process so far, in ms (its children not included). @param {number} pid */
export function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSecond;
  } catch {
    return NaN;
  }
}

/** @param {number} pid @param {'VmRSS' | 'VmHWM'} field kB */
function status(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** Resident memory now, in MB. @param {number} pid */
export const rssMb = (pid) => status(pid, 'VmRSS') / 1024;
/** Peak resident memory since the last {@link resetPeak}, in MB. @param {number} pid */
export const peakMb = (pid) => status(pid, 'VmHWM') / 1024;
/** Starts a new peak (writing 5 to clear_refs resets VmHWM to the current RSS). @param {number} pid */
export function resetPeak(pid) {
  try { fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); return true; } catch { return false; }
}

/** The extension host processes below the VS Code server. @param {number} serverPid */
export function extensionHosts(serverPid) {
  return processTree(serverPid).filter((p) => cmdline(p).some((a) => a.includes('extensionHost')));
}

/**
 * Chromium's renderer processes started by this node process (through Playwright), largest first: the
 * workbench page's renderer, which in code-server also runs the webviews, is the largest.
 */
export function renderers() {
  return processTree(process.pid)
    // a zygote-forked renderer's command line is one string (Chromium sets its process title)
    .filter((p) => cmdline(p).join(' ').includes('--type=renderer'))
    .sort((a, b) => rssMb(b) - rssMb(a));
}
