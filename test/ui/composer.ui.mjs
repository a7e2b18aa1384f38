// @ts-check
// The composer, as a person uses it, against the scripted "composer" agent: the slash-command menu (type
// `/`, filter, see the description and input hint, pick with the keyboard) with the agent receiving
// `/echo arg`; an @-mention through the fuzzy file picker, shown as a chip, with the agent receiving a
// `resource_link`; a config-option change (the model picker in the footer, a boolean in the settings
// popover) reaching the agent, with the response's state showing. Screenshots: composer-*.png
import { composerSettings, idle, lastAgentText, openComposerSession } from './composerAgent.mjs';

export const name = 'composer';
export const sharedWindow = true;
export const settings = composerSettings;
export const files = { 'src/mentionTarget.ts': 'export const target = 42;\n' };
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openComposerSession(t);
  const input = chat.locator('[data-testid="composer-input"]');

  // the slash-command menu
  await input.click();
  await page.keyboard.type('/');
  const menu = chat.locator('[data-testid="slash-menu"]');
  await menu.waitFor({ state: 'visible', timeout: 10_000 });
  t.expect(await menu.getAttribute('role') === 'listbox', 'the menu is a listbox');
  t.expect(await menu.locator('[role="option"]').count() === 3, 'it lists the agent\'s 3 commands');
  await page.keyboard.type('ec');
  t.expect(await menu.locator('[role="option"]').count() === 1, 'typing filters the commands');
  const option = menu.locator('[role="option"]').first();
  t.expect((await option.textContent())?.includes('Repeat the input') && (await option.textContent())?.includes('text to repeat'), 'the option shows its description and input hint');
  t.expect(await input.getAttribute('aria-activedescendant') === await option.getAttribute('id'), 'the text box points at the active option (aria-activedescendant)');
  await t.screenshot('composer-slash-menu');
  await page.keyboard.press('Tab');
  await menu.waitFor({ state: 'hidden', timeout: 5_000 });
  t.expect(await input.inputValue() === '/echo ', 'Tab inserts "/echo "');
  t.expect((await chat.locator('[data-testid="slash-hint"]').textContent())?.includes('text to repeat'), 'the input hint shows until an argument is typed');
  await page.keyboard.type('hello world');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'echo: hello world' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the agent received "/echo hello world" as text and ran the command');
  await idle(chat);

  // Esc closes the menu without sending; arrow keys navigate it
  await input.click();
  await page.keyboard.type('/');
  await menu.waitFor({ state: 'visible', timeout: 5_000 });
  await page.keyboard.press('ArrowDown');
  t.expect(await menu.locator('[aria-selected="true"]').getAttribute('data-value') === 'explain', 'ArrowDown moves to the next command');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden', timeout: 5_000 });
  await page.keyboard.press('Backspace');

  // @-mention a workspace file
  await page.keyboard.type('what is in ');
  await page.keyboard.type('@mentiontar');
  const files = chat.locator('[data-testid="mention-menu"]');
  await files.locator('[role="option"]', { hasText: 'mentionTarget.ts' }).first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the fuzzy file picker finds src/mentionTarget.ts');
  await t.screenshot('composer-mention');
  await page.keyboard.press('Enter');
  const chip = chat.locator('[data-testid="attachment-chip"]', { hasText: 'mentionTarget.ts' });
  await chip.waitFor({ timeout: 5_000 });
  t.expect(!(await input.inputValue()).includes('@'), 'the @query is replaced by a chip');
  await page.keyboard.type('the file?');
  await page.keyboard.press('Enter');
  const received = chat.locator('[data-testid="agent-message"]', { hasText: 'resource_link file://' });
  await received.waitFor({ timeout: 20_000 });
  t.expect((await received.textContent())?.includes('src/mentionTarget.ts'), 'the agent received the file as a resource_link');
  t.expect(await chip.count() === 0, 'sending clears the chips');
  await idle(chat);

  // config options: the model picker in the footer; the boolean in the settings popover
  const model = chat.locator('[data-testid="config-option"][data-config-id="model"]');
  t.expect(await model.locator('vscode-option.dropdown-group').count() === 2, 'the model picker keeps the agent\'s groups');
  await model.click();
  await model.locator('vscode-option[value="smart-1"]').click();
  await chat.locator('[data-testid="config-settings"]').click();
  const web = chat.locator('[data-testid="config-popover"] [data-config-id="web"]');
  await web.waitFor({ timeout: 5_000 });
  t.expect(await chat.locator('[data-testid="config-popover"] [data-config-id="effort"]').count() === 1, 'other categories sit in the settings popover');
  // not locator.check(): the toolkit's checkbox sets aria-checked a few ms after the click (FAST renders its
  // attributes in a batch), and check() reads it at once
  await web.click();
  await chat.locator('[data-testid="config-popover"] [data-config-id="web"][aria-checked="true"]').waitFor({ timeout: 5_000 });
  await t.screenshot('composer-config-popover');
  await page.keyboard.press('Escape');
  await chat.locator('[data-testid="config-popover"]').waitFor({ state: 'hidden', timeout: 5_000 });
  await input.click();
  await page.keyboard.type('config');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'model=smart-1' }).waitFor({ timeout: 20_000 });
  t.expect((await lastAgentText(chat)).includes('web=true'), 'the agent got both changes (session/set_config_option)');
  t.expect(await model.evaluate((el) => /** @type {HTMLElement & { value: string }} */ (el).value) === 'smart-1', 'the footer shows the response\'s state');
}
