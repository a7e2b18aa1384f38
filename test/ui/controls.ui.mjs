// @ts-check
// The chat's controls look and work like VS Code's (issue 13, item 14), from the user's side:
// - the model and mode pickers are the toolkit's dropdowns: the model is changed by keyboard alone (focus,
//   Enter, ↓↓ past the group heading, Enter), the scripted composer agent gets session/set_config_option (it
//   reports model=smart-1) and the focus stays on the picker;
// - the settings popover opens from a `settings-gear` icon button by keyboard; Esc returns to it;
// - the Image button is a `file-media` icon button with a tooltip and an accessible name;
// - a tool card's "Raw input" is a chevron disclosure, collapsed, opened and closed with Enter/Space.
// Screenshots in light, dark and high contrast: controls-<theme>-composer.png, controls-<theme>-card.png.
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';
import { inEachTheme } from './colorThemes.mjs';

export const name = 'controls';
export const sharedWindow = true;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-composer', 'Scripted composer', 'composer', '1'), scriptedAgent('scripted-cards', 'Scripted cards', 'cards')],
};
export const timeout = 240_000;

/**
 * Screenshots of the chat in each theme, after `prepare`.
 * @param {import('../harness/runUi.mjs').UiTest} t @param {string} what @param {() => Promise<void>} prepare
 */
function inEachThemeShot(t, what, prepare) {
  return inEachTheme(t, async (id) => {
    await prepare();
    await t.screenshot(`controls-${id}-${what}`);
  });
}

/** @param {import('playwright-core').Locator} el */
const valueOf = (el) => el.evaluate((e) => /** @type {HTMLElement & { value: string }} */ (e).value);
/** @param {import('playwright-core').Locator} el */
const tagOf = (el) => el.evaluate((e) => e.tagName.toLowerCase());

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted composer');

  // the model picker: a toolkit dropdown, changed by keyboard alone
  const model = chat.locator('[data-testid="config-option"][data-config-id="model"]');
  t.expect(await tagOf(model) === 'vscode-dropdown' && await model.getAttribute('role') === 'combobox', 'the model picker is the toolkit\'s dropdown (a combobox)');
  t.expect(await tagOf(chat.locator('[data-testid="config-option"][data-config-id="mode"]')) === 'vscode-dropdown', 'so is the mode picker');
  t.expect(await chat.locator('select').count() === 0, 'no native <select> is left in the chat');
  t.expect(JSON.stringify(await model.locator('vscode-option.dropdown-group').allTextContents()) === '["Fast","Smart"]', 'the agent\'s groups are headings in the list');
  await model.focus();
  await page.keyboard.press('Enter');
  // the toolkit updates its attributes on its next render
  await chat.locator('[data-testid="config-option"][data-config-id="model"][aria-expanded="true"]').waitFor({ timeout: 5_000 });
  t.expect(await model.getAttribute('aria-expanded') === 'true', 'Enter opens the dropdown');
  await t.screenshot('controls-model-open');
  await page.keyboard.press('ArrowDown'); // fast-2
  await page.keyboard.press('ArrowDown'); // the "Smart" heading is skipped: smart-1
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="config-option"][data-config-id="model"][aria-expanded="false"]').waitFor({ timeout: 5_000 });
  await chat.locator('[data-config-id="model"]:focus').waitFor({ timeout: 10_000 });
  t.expect(await valueOf(model) === 'smart-1', 'ArrowDown twice and Enter chose "Smart 1", skipping the group heading');
  t.expect(await chat.locator('[data-config-id="model"]:focus').count() === 1, 'the keyboard focus stays on the model picker after the agent\'s answer');
  await sendPrompt(t, chat, 'config');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'model=smart-1' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the agent received session/set_config_option with model=smart-1 (it reports its state)');
  await idle(chat);

  // the settings popover from a gear icon button, by keyboard
  const gear = chat.locator('[data-testid="config-settings"]');
  t.expect(await tagOf(gear) === 'vscode-button' && await gear.getAttribute('appearance') === 'icon' && await gear.locator('.codicon-settings-gear').count() === 1,
    'the settings button is a settings-gear icon button');
  t.expect(await gear.getAttribute('aria-label') === 'Session settings' && Boolean(await gear.getAttribute('title')), 'with an accessible name and a tooltip');
  await gear.focus();
  await page.keyboard.press('Enter');
  const popover = chat.locator('[data-testid="config-popover"]');
  await popover.waitFor({ state: 'visible', timeout: 5_000 });
  await chat.locator('[data-testid="config-settings"][aria-expanded="true"]').waitFor({ timeout: 5_000 });
  t.expect(await gear.getAttribute('aria-expanded') === 'true', 'Enter on the gear opens the popover (aria-expanded)');
  t.expect(await popover.locator('[data-config-id="effort"]:focus').count() === 1, 'the focus moves to its first control');
  t.expect(await tagOf(popover.locator('[data-config-id="web"]')) === 'vscode-checkbox', 'booleans are toolkit checkboxes');
  await page.keyboard.press('Escape');
  await popover.waitFor({ state: 'hidden', timeout: 5_000 });
  const focused = () => chat.locator(':focus').evaluateAll((els) => els.map((e) => `${e.tagName}.${e.className}[${e.getAttribute('data-testid')}]`).join(' '));
  await chat.locator('[data-testid="config-settings"]:focus').waitFor({ timeout: 2_000 }).catch(() => {});
  t.expect(await chat.locator('[data-testid="config-settings"]:focus').count() === 1, `Esc closes it and returns the focus to the gear (focused: ${await focused()})`);

  // the Image button: an icon button with a tooltip
  const image = chat.locator('[data-testid="composer-image"]');
  t.expect(await tagOf(image) === 'vscode-button' && await image.getAttribute('appearance') === 'icon' && await image.locator('.codicon-file-media').count() === 1,
    'the Image button is a file-media icon button');
  t.expect((await image.textContent())?.trim() === '' && await image.getAttribute('aria-label') === 'Attach an image', 'no text, an accessible name');
  t.expect((await image.getAttribute('title'))?.startsWith('Attach an image'), 'and a tooltip');
  await inEachThemeShot(t, 'composer', async () => { await chat.locator('[data-testid="composer-input"]').focus(); });

  // a tool card's raw input: a chevron disclosure, by keyboard
  const cards = await openSession(t, 'Scripted cards');
  await sendPrompt(t, cards, 'show me the cards');
  const card = cards.locator('[data-tool-call-id="tc-read"][data-status="completed"]');
  await card.waitFor({ timeout: 30_000 });
  // the turn's permission request takes the focus when it arrives (webview/views/permissionFocus.ts): wait for it first
  await cards.locator('[data-testid="permission"]').waitFor({ timeout: 30_000 });
  const toggle = card.locator('[data-testid="raw-input-toggle"]');
  const body = card.locator('[data-testid="raw-input"] pre');
  t.expect(await tagOf(toggle) === 'button' && await toggle.getAttribute('aria-expanded') === 'false' && !(await body.isVisible()), 'Raw input is a button, collapsed by default');
  t.expect(await toggle.locator('.codicon-chevron-right').count() === 1 && (await toggle.textContent())?.trim() === 'Raw input', 'a right chevron and the label');
  const card0 = await card.boundingBox();
  await toggle.focus();
  await page.keyboard.press('Enter');
  await body.waitFor({ state: 'visible', timeout: 5_000 });
  t.expect(await toggle.getAttribute('aria-expanded') === 'true' && await toggle.locator('.codicon-chevron-down').count() === 1, 'Enter opens it (aria-expanded, a down chevron)');
  t.expect((await body.textContent())?.includes('"limit": 20'), 'it shows the JSON');
  const font = await body.evaluate((el) => getComputedStyle(el).fontFamily);
  const editorFont = await body.evaluate((el) => getComputedStyle(el).getPropertyValue('--vscode-editor-font-family'));
  const first = (/** @type {string} */ f) => f.split(',')[0].replace(/["'\s]/g, '');
  t.expect(first(editorFont) !== '' && first(font) === first(editorFont), `in the editor font (${font}; the theme's editor font is ${editorFont.trim()})`);
  await page.keyboard.press('Space');
  await body.waitFor({ state: 'hidden', timeout: 5_000 });
  t.expect(await toggle.getAttribute('aria-expanded') === 'false', 'Space closes it again');
  const card1 = await card.boundingBox();
  t.expect(card0 !== null && card1 !== null && card1.height === card0.height, `closed, it takes the card's height back (${card0?.height} px)`);
  const toggleBox = await toggle.boundingBox();
  t.expect(toggleBox !== null && toggleBox.height <= 22, `the disclosure is one small line (${toggleBox?.height} px)`);
  await page.keyboard.press('Enter');
  await body.waitFor({ state: 'visible', timeout: 5_000 });
  await inEachThemeShot(t, 'card', async () => { await card.evaluate((el) => el.scrollIntoView({ block: 'start' })); });
}
