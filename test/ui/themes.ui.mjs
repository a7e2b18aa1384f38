// @ts-check
// Screenshots of the chat in light, dark and high-contrast themes, to be looked at: an error notice with
// Retry, a stop-reason notice, the plan and the usage meter, every tool-call card (text, diffs, a coloured
// terminal, a failed call) and a pending permission dialog. The theme is switched through the workspace's
// `workbench.colorTheme`, so one session (and one server, shared with cards.ui.mjs) shows all three.
// Screenshots: test-results/screenshots/<version>/themes-<theme>-{top,bottom}.png
import { colorThemes, resetTheme, switchTheme } from './colorThemes.mjs';
import { cardsSettings, openCardsSession, sendPrompt } from './cardsAgent.mjs';

export const name = 'themes';
export const sharedWindow = true;
export const settings = cardsSettings;
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openCardsSession(t);
  const idle = () => chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  await sendPrompt(t, chat, 'fail please');
  await chat.locator('[data-testid="notice-retry"]').waitFor({ timeout: 20_000 });
  await idle();
  await sendPrompt(t, chat, 'stop now');
  await chat.locator('[data-testid="notice"][data-level="warning"]').waitFor({ timeout: 20_000 });
  await idle();
  await sendPrompt(t, chat, 'show me the cards');
  await chat.locator('[data-testid="permission"]').waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="terminal-status"]', { hasText: 'exit code 0' }).waitFor({ timeout: 30_000 }).catch(() => {});
  await chat.locator('[data-tool-call-id="tc-read"] [data-testid="raw-input-toggle"]').click();
  t.expect(true, 'the transcript shows notices, cards, a terminal and a pending permission');

  const transcript = chat.locator('#transcript');
  for (const { id, theme, bodyClass } of colorThemes) {
    await switchTheme(t, { id, theme, bodyClass });
    const kind = await chat.locator('body').getAttribute('class');
    t.expect(kind?.includes(bodyClass === 'vs' ? 'vscode-light' : bodyClass === 'vs-dark' ? 'vscode-dark' : 'vscode-high-contrast'), `the chat follows ${theme} (body class ${kind})`);
    await transcript.evaluate((el) => { el.scrollTop = 0; });
    await t.screenshot(`themes-${id}-top`);
    await chat.locator('[data-tool-call-id="tc-edit"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await t.screenshot(`themes-${id}-middle`);
    await transcript.evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await t.screenshot(`themes-${id}-bottom`);
  }
  resetTheme(t);
}
