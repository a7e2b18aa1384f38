// @ts-check
// Reload Window restores every chat with its own session: a Demo agent chat (left in a background tab) and
// a scripted agent's chat (the active tab) each get a prompt, the page reloads, and each tab, once
// activated, shows its own title and transcript; the Demo agent chat is not read-only and answers a new
// prompt. A third chat's agent (it can neither resume nor load) crashes mid-turn, and the user continues it
// in a new session: after the reload the crashed chat and its continuation come back too, each with its
// own transcript (read-only: their agent cannot reopen them; the continuation's first message, the context
// block, still collapsed), and no tab shows another one's session.
// The folder has no README.md: the Demo agent's first answer shows no error card.
// Screenshots: test-results/screenshots/<version>/reload-tabs-*.png
import fs from 'node:fs';
import path from 'node:path';
import { idle, openDemoSession, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'reload-tabs';
export const timeout = 300_000;
export const settings = {
  'switchboard.agents': [
    scriptedAgent('scripted-history', 'Scripted history', 'historyPaging'),
    scriptedAgent('scripted-crash', 'Scripted crash', 'crashNoResume'),
  ],
};
// no README.md: the Demo agent's README read must end with a note, not "-32002 Resource not found"
export const files = {
  'src/hello.ts': 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n',
  'notes.txt': 'line 1\nline 2\n',
};

/**
 * The text of the extension's log files for an agent (output channels are files in the user data's logs).
 * @param {string} userData @param {string} agentName
 */
function agentLog(userData, agentName) {
  const dir = path.join(userData, 'logs');
  if (!fs.existsSync(dir)) return '';
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => path.basename(f).includes(agentName) && f.endsWith('.log'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

/**
 * Activates the chat tab with this title and returns its webview.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {string | RegExp} title
 */
async function activate(t, title) {
  // the tab's label is the title (a RegExp's ^ anchors the webview title, not the tab's text)
  const tabText = typeof title === 'string' ? title : new RegExp(title.source.replace(/^\^/, ''));
  const tab = t.page.locator('.tabs-container .tab', { hasText: tabText }).first();
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  await t.page.locator('.tabs-container .tab.active', { hasText: tabText }).first().waitFor({ timeout: 15_000 });
  return t.webviewByTitle(title, { timeoutMs: 60_000 });
}

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const demoTitle = 'First question · Demo agent'; // the Demo agent names a chat after its first prompt
  // an untitled session is named by its first prompt
  const scriptedTitle = 'go · Scripted history';
  const crashedTitle = 'do something risky · Scripted crash';
  const continuationTitle = /^Continued: /;

  // 1. a Demo agent chat, first message in a folder without README.md
  const { chat: demo } = await openDemoSession(t);
  await sendPrompt(t, demo, 'first question');
  await demo.locator('[data-testid="agent-message"]', { hasText: 'Answering as' }).first().waitFor({ timeout: 30_000 });
  await idle(demo);
  const read = demo.locator('[data-testid="tool-call"]', { hasText: 'Read README.md' }).first();
  t.expect(await read.getAttribute('data-status') === 'completed', 'the README read completes (no README.md here)');
  t.expect(await demo.locator('[data-testid="tool-call"][data-status="failed"]').count() === 0, 'no failed card');
  const demoText = await demo.locator('body').innerText();
  t.expect(!/-32002|Resource not found|Failed:/.test(demoText), 'no protocol error in the first answer');
  t.expect(/There is no README\.md in this folder/.test(demoText), 'a friendly note instead');
  await t.screenshot('reload-tabs-demo-no-readme');

  // 2. a scripted agent's chat, which stays the active tab (the Demo agent chat goes to the background)
  const scripted = await openSession(t, 'Scripted history');
  await sendPrompt(t, scripted, 'go');
  await scripted.locator('[data-testid="agent-message"]', { hasText: /end-of-paged-\d+/ }).first().waitFor({ timeout: 20_000 });
  await idle(scripted);
  await page.locator('.tabs-container .tab.active', { hasText: 'Scripted history' }).first().waitFor({ timeout: 15_000 });
  t.expect(await page.locator('.tabs-container .tab', { hasText: demoTitle }).count() === 1, 'the Demo agent chat has its title');

  // 2b. a chat whose agent crashes mid-turn and cannot reopen it; the user continues it in a new session
  const crashed = await openSession(t, 'Scripted crash');
  await sendPrompt(t, crashed, 'do something risky');
  await crashed.locator('[data-testid="session-error"] [data-testid="notice-continue"]').waitFor({ timeout: 30_000 });
  await crashed.locator('[data-testid="session-error"] [data-testid="notice-continue"]').click();
  const continuation = await t.webviewByTitle(continuationTitle, { timeoutMs: 30_000 });
  await continuation.locator('[data-testid="agent-message"]', { hasText: 'carrying on' }).first().waitFor({ timeout: 30_000 });
  await idle(continuation);
  t.expect(await page.locator('.tabs-container .tab').count() === 4, 'four chat tabs: Demo, scripted, crashed, continuation');

  // 3. reload the window
  const resumedBefore = (agentLog(t.server.dirs.userData, 'Demo agent').match(/resumed in/g) ?? []).length;
  await t.reloadWindow();

  // the active tab comes back first; the background one is restored by VS Code when it is first shown
  // the continuation was the active tab; then the others, in an order VS Code did not restore them in
  const contBack = await activate(t, continuationTitle);
  await contBack.locator('[data-testid="agent-message"]', { hasText: 'carrying on' }).first().waitFor({ timeout: 60_000 });
  t.expect(await contBack.locator('[data-testid="user-message"]', { hasText: /^do something risky$/ }).count() === 0, 'the continuation shows its own transcript');
  const context = contBack.locator('[data-testid="context-block"]');
  t.expect(await context.count() === 1 && await context.getAttribute('open') === null && /^Context from '/.test(await context.locator('summary').innerText()),
    'its first message, the earlier conversation\'s context, is still collapsed after the reload');
  const crashedBack = await activate(t, crashedTitle);
  await crashedBack.locator('[data-testid="notice"]', { hasText: 'Agent exited (code 1)' }).first().waitFor({ timeout: 60_000 });
  await crashedBack.locator('[data-testid="user-message"]', { hasText: 'do something risky' }).first().waitFor({ timeout: 10_000 });
  t.expect(await crashedBack.locator('[data-testid="agent-message"]', { hasText: 'carrying on' }).count() === 0, 'the crashed chat shows its own transcript, with the crash');
  t.expect(await crashedBack.locator('[data-testid="session-error"] [data-testid="notice-continue"]').count() === 1, 'its banner still offers Continue in New Session');
  await t.screenshot('reload-tabs-crashed-after-reload');
  const back = await activate(t, scriptedTitle);
  await back.locator('[data-testid="agent-message"]', { hasText: /end-of-paged-\d+/ }).first().waitFor({ timeout: 60_000 });
  await back.locator('[data-testid="user-message"]', { hasText: 'go' }).first().waitFor({ timeout: 10_000 });
  t.expect(true, 'the scripted chat is back with its own transcript');
  const resumedInBackground = (agentLog(t.server.dirs.userData, 'Demo agent').match(/resumed in/g) ?? []).length > resumedBefore;
  t.log(`the background Demo agent chat was ${resumedInBackground ? 'restored before' : 'not yet restored when'} its tab was shown`);

  const demoBack = await activate(t, demoTitle);
  await demoBack.locator('[data-testid="user-message"]', { hasText: 'first question' }).first().waitFor({ timeout: 60_000 });
  await demoBack.locator('[data-testid="agent-message"]', { hasText: 'Answering as' }).first().waitFor({ timeout: 10_000 });
  t.expect(await demoBack.locator('[data-testid="user-message"]', { hasText: 'go' }).count() === 0, 'the Demo agent chat shows its own transcript, not the other one');
  await idle(demoBack);
  const resumedAfter = (agentLog(t.server.dirs.userData, 'Demo agent').match(/resumed in/g) ?? []).length;
  t.log(`Demo agent log: ${resumedBefore} resumes before the reload, ${resumedAfter} after the tab was shown`);
  t.expect(resumedAfter > resumedBefore, 'the Demo agent resumed the session (session/resume on a new agent process)');
  const header = await demoBack.locator('body').innerText();
  t.expect(!/Read-only|could not reopen|Resource not found/.test(header), 'the Demo agent chat is not read-only after the reload');
  await t.screenshot('reload-tabs-demo-after-reload');

  // 4. the Demo agent chat takes a new prompt; the answer is the session's second turn
  await sendPrompt(t, demoBack, 'second question');
  await demoBack.locator('[data-testid="agent-message"]', { hasText: 'second question' }).first().waitFor({ timeout: 30_000 });
  await idle(demoBack);
  t.expect(await demoBack.locator('[data-testid="user-message"]').count() === 2, 'both prompts in the transcript');
  t.expect(await page.locator('.tabs-container .tab', { hasText: 'Scripted history' }).count() === 1, 'the scripted chat tab is still there');
  await t.screenshot('reload-tabs-after-prompt');
}
