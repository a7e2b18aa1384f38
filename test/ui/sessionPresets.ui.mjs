// @ts-check
// Presets: a session whose agent switched to another model and mode is saved with ACP: Save as Preset… (a name, a
// prompt prefix, the user's settings); New Session lists the preset first, and the session it starts has the same
// model and mode (set with session/set_config_option before the chat opens) and sends the prefix before the first
// prompt, while the session is named after what the user wrote.
// Screenshots: sessionPresets-picker.png (New Session with the preset), sessionPresets-started.png.
import { idle, openSession, scriptedAgent, sendPrompt, untitledTab } from './scriptedSession.mjs';
import { rowTexts } from '../harness/uiTest.mjs';

export const name = 'sessionPresets';
export const sharedWindow = true;
export const timeout = 180_000;
export const settings = { 'switchboard.agents': [scriptedAgent('home-done', 'Home done', 'homeDone')] };

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const first = await openSession(t, 'Home done');
  await sendPrompt(t, first, '/settings');
  await first.locator('[data-testid="agent-message"]', { hasText: 'Now smart in code mode.' }).waitFor({ timeout: 20_000 });
  await idle(first);

  // Save as Preset…: a name, a prompt prefix, where to keep it
  await t.runCommand(t.commandTitle('switchboard.saveAsPreset'));
  const input = page.locator('.quick-input-widget input');
  /**
   * Types into the quick input once it has the keyboard. When the command palette closes just as the
   * command's own input opens, the workbench may give the keyboard back to the chat a moment later (seen on
   * a loaded machine: "Smart coder" went to the composer as a prompt); a person would click the box.
   * @param {string} text
   */
  const typeIntoQuickInput = async (text) => {
    const hasKeyboard = () => input.evaluate((el) => el === document.activeElement && document.hasFocus()).catch(() => false);
    for (const start = Date.now(); Date.now() - start < 2_000 && !(await hasKeyboard()); await page.waitForTimeout(100));
    if (!(await hasKeyboard())) {
      t.log('the quick input did not have the keyboard: clicking it');
      await input.click();
    }
    await page.keyboard.type(text);
  };
  await page.locator('.quick-input-widget', { hasText: 'Save as Preset (1/3)' }).first().waitFor({ timeout: 15_000 });
  t.expect((await input.inputValue()) === 'Home done smart code', `the name suggested says the agent, model and mode (${await input.inputValue()})`);
  await typeIntoQuickInput('Smart coder');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'Save as Preset (2/3)' }).first().waitFor({ timeout: 10_000 });
  await typeIntoQuickInput('Be brief.');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'Save as Preset (3/3)' }).first().waitFor({ timeout: 10_000 });
  await typeIntoQuickInput('User Settings');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
  await page.waitForTimeout(1000); // the focus goes back to the chat first

  // New Session: the preset first
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: 'Smart coder' }).first().waitFor({ timeout: 15_000 });
  const texts = await rowTexts(rows);
  t.expect(texts[0]?.includes('Presets') && texts[0].includes('Smart coder') && texts[0].includes('model smart') && texts[0].includes('mode code'), `the preset comes first, with its model and mode (${JSON.stringify(texts.slice(0, 2))})`);
  await t.screenshot('sessionPresets-picker');
  // the first chat may take the keyboard back a moment late and close the picker: open it again (3 tries)
  for (let attempt = 1; !(await page.locator('.quick-input-widget input').evaluate((el) => el === document.activeElement && el.checkVisibility()).catch(() => false)); attempt++) {
    if (attempt === 3) throw new Error('the New Session picker lost the keyboard 3 times');
    await t.runCommand(t.commandTitle('switchboard.newSession'), { shows: rows.filter({ hasText: 'Smart coder' }) });
  }
  await page.keyboard.press('Enter');
  const second = await t.webviewByTitle(untitledTab('Home done'), { timeoutMs: 30_000 });
  await second.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await idle(second);
  await sendPrompt(t, second, 'Which settings? /which');
  await second.locator('[data-testid="agent-message"]', { hasText: 'Model smart, mode code.' }).waitFor({ timeout: 20_000 });
  const answer = (await second.locator('[data-testid="agent-message"]').last().innerText()).replace(/\s+/g, ' ');
  t.expect(/You sent: Be brief\. Which settings\? \/which/.test(answer), `the prefix went before the first prompt (${answer})`);
  await page.locator('.tabs-container .tab.active', { hasText: 'Which settings? /which' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the new session has the same model and mode, and is named after the user\'s prompt');
  await t.screenshot('sessionPresets-started');
}
