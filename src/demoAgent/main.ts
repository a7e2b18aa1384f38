/**
 * Entry of the built-in Demo agent, bundled by esbuild into dist/agents/demoAgent.js. Run it as
 * `node dist/agents/demoAgent.js` (or with Electron: ELECTRON_RUN_AS_NODE=1). It speaks ACP on
 * stdio, needs no network and no API key, and logs one line per request to stderr.
 */
import { demoScenario } from './demoScenario';
import { runStdioAgent } from './stdioAgent';

void runStdioAgent(demoScenario);
