// @ts-check
// Working while the agent works: messages sent during a turn queue visibly above the prompt box, can be
// edited and removed, and the rest is sent when the turn ends (an agent without steering has no Send Now, and its key queues); prompt history with ↑; Esc cancels a turn
// and the pending permission request is answered `cancelled`. Screenshots: composer-queue-*.png
import { composerSettings, idle, openComposerSession } from './composerAgent.mjs';

export const name = 'composer-queue';
export const sharedWindow = true;
export const settings = composerSettings;
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openComposerSession(t);
  const input = chat.locator('[data-testid="composer-input"]');

  // a slow turn, then two messages written while it runs
  await input.click();
  await page.keyboard.type('slow please');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="session-status"][data-status="working"]').waitFor({ timeout: 10_000 });
  await page.keyboard.type('first queued');
  await page.keyboard.press('Enter');
  t.expect(await chat.locator('[data-testid="composer-send-now"]').isHidden(), 'an agent that does not advertise steering: Queue, and no Send Now');
  await page.keyboard.type('second queued');
  await page.keyboard.press('Alt+Enter'); // Send Now's key: this agent cannot take it, so it queues
  const queued = chat.locator('[data-testid="queued-prompt"]');
  await queued.nth(1).waitFor({ timeout: 5_000 });
  t.expect(await queued.count() === 2, 'both messages are queued visibly');
  const editIcon = queued.first().locator('[data-testid="queued-edit"]');
  t.expect(await editIcon.getAttribute('appearance') === 'icon' && await editIcon.locator('.codicon-edit').count() === 1 && await editIcon.getAttribute('aria-label') === 'Edit'
    && await queued.first().locator('[data-testid="queued-remove"] .codicon-close').count() === 1, 'Edit and Remove are icon buttons (codicons with names and tooltips)');
  // edit the first, remove the second
  await queued.first().locator('[data-testid="queued-edit"]').click();
  const editor = chat.locator('[data-testid="queued-input"]');
  await editor.waitFor({ timeout: 5_000 });
  await editor.fill('edited queued');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="queued-prompt"]', { hasText: 'edited queued' }).waitFor({ timeout: 5_000 });
  await chat.locator('[data-testid="queued-prompt"]', { hasText: 'second queued' }).locator('[data-testid="queued-remove"]').click();
  await chat.locator('[data-testid="queued-prompt"]', { hasText: 'second queued' }).waitFor({ state: 'detached', timeout: 5_000 });
  await t.screenshot('composer-queue');
  // the turn ends: the edited message is sent
  await chat.locator('[data-testid="agent-message"]', { hasText: 'received: edited queued' }).waitFor({ timeout: 30_000 });
  t.expect(true, 'the queued message was sent after the turn ended');
  await chat.locator('[data-testid="composer-queue"]').waitFor({ state: 'hidden', timeout: 5_000 });
  t.expect(await chat.locator('[data-testid="user-message"]', { hasText: 'second queued' }).count() === 0, 'the removed message was not sent');
  await idle(chat);

  // prompt history: ↑ recalls the last prompt
  await input.click();
  await page.keyboard.press('ArrowUp');
  t.expect(await input.inputValue() === 'second queued', `ArrowUp recalls the last prompt written (${await input.inputValue()})`);
  await page.keyboard.press('ArrowUp');
  t.expect(await input.inputValue() === 'first queued', 'ArrowUp again recalls the one before');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  t.expect(await input.inputValue() === '', 'ArrowDown past the newest brings back the (empty) draft');

  // Esc cancels a turn; the pending permission request is answered cancelled
  await page.keyboard.type('needs permission');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="permission"]').waitFor({ timeout: 20_000 });
  await input.click();
  await page.keyboard.press('Escape');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'cancelled' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the agent saw its permission request answered "cancelled"');
  await chat.locator('[data-testid="permission"]').waitFor({ state: 'detached', timeout: 10_000 });
  await idle(chat);
  t.expect(await chat.locator('[data-testid="notice"]', { hasText: 'Turn cancelled' }).count() >= 1 || (await chat.locator('#transcript').textContent())?.includes('Turn cancelled'), 'the turn ended cancelled');
  await t.screenshot('composer-queue-cancelled');
}
