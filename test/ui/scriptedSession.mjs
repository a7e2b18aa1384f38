// @ts-check
// Shared by the UI modules that drive scripted agents (test/fixtures/agents/scenarios): a
// `switchboard.agents` entry for a scenario, New Session with an agent by name, sending a prompt.
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ROOT, focusSettled } from '../harness/harness.mjs';
import { NEW_SESSION_KEY } from '../harness/sharedWindow.mjs';

/**
 * A `switchboard.agents` entry that runs the scripted agent on `scenario` (file name without .json).
 * @param {string} id @param {string} name @param {string} scenario @param {string} delayScale
 */
export function scriptedAgent(id, name, scenario, delayScale = '0') {
  return {
    id, name, command: process.execPath,
    args: [
      path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'scriptedAgent.js'),
      path.join(EXTENSION_ROOT, 'test', 'fixtures', 'agents', 'scenarios', `${scenario}.json`),
    ],
    env: { SCRIPTED_AGENT_DELAY_SCALE: delayScale },
  };
}

/**
 * Waits until the session is idle.
 * @param {import('playwright-core').FrameLocator} chat
 */
export function idle(chat) {
  return chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
}

/**
 * The title of an untitled chat of `agentName`: the agent and the local time the session was created
 * ("Demo agent · 10:42:07", src/shared/viewModel.ts `untitledTitle`).
 * @param {string} agentName
 */
export function untitledTab(agentName) {
  return new RegExp(`^${agentName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · \\d\\d:\\d\\d:\\d\\d$`);
}

/**
 * New Session with the agent named `agentName`; resolves with the chat's frame once the session is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} agentName
 */
export async function openSession(t, agentName) {
  const t0 = Date.now();
  await pickAgent(t, agentName, agentName);
  const picked = Date.now();
  // by its title: with other chats open, the first webview found may be another one's, still on screen
  const chat = await t.webviewByTitle(untitledTab(agentName), { timeoutMs: 30_000 });
  await chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  const shown = Date.now();
  await idle(chat);
  const ready = Date.now();
  await composerSettled(t, chat);
  t.log(`New Session with ${agentName}: picked after ${picked - t0} ms, the chat's composer shown ${shown - picked} ms later, idle ${ready - shown} ms later, the composer had the keyboard ${Date.now() - ready} ms later`);
  return chat;
}

/**
 * New Session (its key in the UI tests, NEW_SESSION_KEY; another `command` from the palette) and picks the agent by
 * typing `filter` into the picker, then Enter. The picker is opened again from the palette (3 tries) if it did not
 * show or closed before the pick: a chat that takes the keyboard a moment late closes it, and
 * what was typed would go into that chat.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} agentName  a row that shows this
 * @param {string} filter     what to type
 * @param {string} [command]  the command that opens the picker (default New Session; the Chat view's has its own)
 */
export async function pickAgent(t, agentName, filter, command = 'switchboard.newSession') {
  const pick = t.page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    if (command === 'switchboard.newSession' && attempt === 1) {
      // its key, bound in the UI tests' keybindings (sharedWindow.mjs); the palette if the picker did not show
      await focusSettled(t.page);
      await t.page.keyboard.press(NEW_SESSION_KEY);
      t.log('pressed New Session\'s key');
    } else await t.runCommand(t.commandTitle(command));
    try {
      await t.page.locator('.quick-input-list .monaco-list-row', { hasText: agentName }).first().waitFor({ timeout: 15_000 });
      await pick.fill(filter, { timeout: 5000 });
      if (!(await pick.evaluate((el) => el === document.activeElement && el.checkVisibility()))) throw new Error('the agent picker lost the keyboard');
      await t.page.keyboard.press('Enter');
      return;
    } catch (e) {
      if (attempt === 3) throw e;
      t.log(`New Session's picker closed before the pick (${e instanceof Error ? e.message.split('\n')[0] : e}): again`);
    }
  }
}

/**
 * After New Session the chat's composer takes the keyboard a moment later: waits (5 s at most, not an
 * assertion; composerFocus.ui.mjs asserts it) so that the next palette command is not closed by it.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 */
export async function composerSettled(t, chat) {
  const input = chat.locator('[data-testid="composer-input"]');
  for (const start = Date.now(); Date.now() - start < 5000; await t.page.waitForTimeout(100)) {
    if (await input.evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus()).catch(() => false)) return;
  }
}

/**
 * Lets a scripted agent's `waitForFile` step on `{{cwd}}/<name>` go on: the test has done what the agent waits
 * for (a fixed pause in the scenario was too short for a loaded machine).
 * @param {import('../harness/runUi.mjs').UiTest} t @param {string} name
 */
export function letAgentGoOn(t, name) {
  fs.writeFileSync(path.join(t.workspace, name), '');
}

/**
 * The chat was just hidden (another editor in front): lets an agent that waits for `.chat-hidden` send the
 * request that must be asked outside the chat. The extension host hears of the hidden panel a moment after
 * the page shows it: on a loaded 2-core machine more than 300 ms later (the request then came to a chat it
 * still took for visible, and no notification was shown).
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function chatHidden(t) {
  await t.page.waitForTimeout(1500);
  letAgentGoOn(t, '.chat-hidden');
}

/**
 * Types a prompt into the composer and sends it with Enter.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} text
 */
export async function sendPrompt(t, chat, text) {
  await chat.locator('[data-testid="composer-input"]').click();
  await t.page.keyboard.type(text);
  await t.page.keyboard.press('Enter');
}

/**
 * Sends `prompt`, whose turn asks a permission (the remoteTurn scenario's 'deploy'), and answers it from the
 * keyboard: the dialog's first option (Allow) focused, Enter; resolves once its tool call completed and the chat is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').FrameLocator} chat
 * @param {string} prompt
 */
export async function allowFromKeyboard(t, chat, prompt) {
  await sendPrompt(t, chat, prompt);
  const dialog = chat.locator('[data-testid="permission"][data-armed]');
  await dialog.waitFor({ timeout: 20_000 });
  await dialog.locator('[data-testid="permission-option"]').first().focus();
  await t.page.keyboard.press('Enter');
  await chat.locator('[data-testid="tool-call"][data-status="completed"]').waitFor({ timeout: 20_000 });
  await idle(chat);
}

/**
 * Closes the session of every chat tab whose title matches `title` (ACP: Close Session on each): an agent with no
 * open session is not reconnected, so a module that stops its servers leaves no reconnection running in a shared window.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {RegExp} title
 */
export async function closeChats(t, title) {
  for (let i = 0; i < 6; i++) {
    const tab = t.page.locator('.tabs-container .tab', { hasText: title }).first();
    if (!(await tab.count())) return;
    await tab.click();
    await t.runCommand(t.commandTitle('switchboard.closeSession'));
    await t.page.waitForTimeout(300);
  }
}

/**
 * New Session with the built-in Demo agent, picked from the keyboard; resolves once the chat is idle.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
export async function openDemoSession(t) {
  await pickAgent(t, 'Demo agent', 'Demo');
  const chat = await t.webview({ timeoutMs: 30_000 });
  const input = chat.locator('[data-testid="composer-input"]');
  await input.waitFor({ timeout: 30_000 });
  await idle(chat);
  await composerSettled(t, chat);
  return { chat, input };
}

/**
 * Types a slash command that takes no input and sends it with one Enter: the slash-command menu runs a command
 * without input at once (issue 26); resolves once the composer is empty (the prompt went out).
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {import('playwright-core').Locator} input
 * @param {string} command
 */
export async function sendSlashCommand(t, input, command) {
  await input.click();
  await t.page.keyboard.type(command);
  await t.page.keyboard.press('Enter');
  await input.evaluate((el) => new Promise((resolve, reject) => {
    const start = Date.now();
    const check = () => (/** @type {HTMLTextAreaElement} */ (el).value.trim() === '' ? resolve(undefined)
      : Date.now() - start > 10_000 ? reject(new Error(`one Enter did not send the slash command (the composer holds "${/** @type {HTMLTextAreaElement} */ (el).value}")`))
        : setTimeout(check, 50));
    check();
  }));
}

/**
 * Reloads the window the way a person does (Developer: Reload Window: an orderly shutdown saves the open editors;
 * a bare page reload raced the workbench's save of them on a loaded machine, and the chat tab did not come back),
 * then brings the chat tab `agentName` back to the front; resolves with its frame, titled `title`.
 * @param {import('../harness/runUi.mjs').UiTest} t
 * @param {string} agentName
 * @param {string | RegExp} title
 */
export async function reloadWindowAndReopen(t, agentName, title) {
  await t.reloadWindow();
  const tab = t.page.locator('.tabs-container .tab', { hasText: agentName }).first();
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  return t.webviewByTitle(title, { timeoutMs: 60_000 });
}

/**
 * Every codicon on screen in the chat has its glyph: the webview's codicon.css keeps only the icons its
 * sources name (esbuild.mjs, codiconsInUse), so an icon named some other way would show nothing.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {import('playwright-core').FrameLocator} chat
 */
export async function expectGlyphs(t, chat) {
  const blank = await chat.locator('body').evaluate(() => Array.from(document.querySelectorAll('.codicon'))
    .filter((e) => !/^["']./.test(getComputedStyle(e, '::before').content))
    .map((e) => e.className));
  const shown = await chat.locator('.codicon').count();
  t.expect(blank.length === 0, `all ${shown} codicons on screen have their glyph${blank.length ? `; blank: ${blank.join(', ')}` : ''}`);
}

/**
 * A module's `run` whose runs on the VS Code versions take turns: for a module whose settings name fixed resources
 * (ports, an sshd and its key), which it reads before it runs, once for every version; the UI runner may start
 * the versions' runs at the same time.
 * @param {(t: import('../harness/runUi.mjs').UiTest) => Promise<void>} body
 * @returns {(t: import('../harness/runUi.mjs').UiTest) => Promise<void>}
 */
export function takingTurns(body) {
  let turn = Promise.resolve();
  return async (t) => {
    const before = turn;
    /** @type {() => void} */
    let done = () => {};
    turn = new Promise((resolve) => { done = resolve; });
    await before;
    try {
      await body(t);
    } finally {
      done();
    }
  };
}
