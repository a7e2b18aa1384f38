// @ts-check
// ACP traffic validation for the integration and UI suites: the scripted test agents check every message the
// client sends them against the SDK's JSON Schema and record one line per message in the folder named by env
// SWITCHBOARD_TRAFFIC_DIR (test/fixtures/agents/trafficTap.ts). The runners give each version its own folder
// and count a run with any violation as a failure. The built-in Demo agent is not a test agent: its traffic is
// not recorded.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';

/**
 * A fresh folder for one layer and version; the runner passes it to the server (or the shim) as
 * SWITCHBOARD_TRAFFIC_DIR, which the extension host and the scripted agents inherit.
 * @param {string} layer e.g. "ui", "integration"
 * @param {string} version
 * @returns {string} the folder
 */
export function startTraffic(layer, version) {
  const dir = path.join(REPO_ROOT, 'test-results', 'traffic', `${layer}-${version}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Adds up what the agents recorded; prints one line; returns the violations (empty when all is well).
 * @param {string} dir
 * @returns {string[]}
 */
export function finishTraffic(dir) {
  let checked = 0;
  let unstable = 0;
  let v2 = 0;
  /** @type {Map<string, number>} */
  const violations = new Map();
  for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : []) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      checked++;
      /** @type {{method?: string, kind?: string, schema?: string, problems?: string[]}} */
      let record;
      try { record = JSON.parse(line); } catch { record = { method: '?', kind: 'torn line', problems: [line.slice(0, 120)] }; }
      if (record.schema === 'unstable' || record.schema === 'v2 unstable') unstable++;
      if (record.schema?.startsWith('v2')) v2++;
      if (record.problems?.length) {
        const key = `${record.kind} ${record.method}: ${record.problems.join('; ')}`;
        violations.set(key, (violations.get(key) ?? 0) + 1);
      }
    }
  }
  const total = [...violations.values()].reduce((a, b) => a + b, 0);
  console.log(`ACP traffic: ${checked} client messages checked against the SDK schema (${unstable} by the unstable one, ${v2} by the ACP v2 draft's), ${total} violation(s)`);
  return [...violations].map(([key, n]) => `${n}× ${key}`);
}

/**
 * Counts a version's run as failed (one failure listing the violations) when its traffic broke the schema.
 * @param {string} dir
 * @param {import('./report.mjs').VersionResult} result
 */
export function recordTraffic(dir, result) {
  const violations = finishTraffic(dir);
  if (!violations.length) return;
  result.failed++;
  result.failures.push(`ACP traffic: the client sent messages the SDK schema rejects (records in ${path.relative(REPO_ROOT, dir)}):\n${violations.slice(0, 20).join('\n')}`);
}
