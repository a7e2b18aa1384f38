/**
 * Entry point of the watchdog process (bundled as dist/agents/watchdog.js): `watchdog.js <hostPid>`,
 * started by the extension host with stdin as a pipe from it. See `watchdog.ts` and docs/architecture.md
 * ("Process lifetime").
 */
import { isProcessAlive } from './processTree';
import { runWatchdog } from './watchdog';

const hostPid = Number(process.argv[2]);
if (!Number.isInteger(hostPid) || hostPid <= 1) {
  process.stderr.write('usage: watchdog.js <hostPid>\n');
  process.exit(2);
}
// a SIGTERM meant for the whole window (the host is gone too) ends the agents; one for the watchdog
// alone (the host still runs and keeps its agents) just ends the watchdog
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (isProcessAlive(hostPid)) process.exit(0);
    process.stdin.destroy();
  });
}
void runWatchdog(process.stdin, { hostPid }).then(
  () => process.exit(0),
  () => process.exit(1),
);
