// @ts-check
// A person's path: command palette → "ACP: New Session…" → pick "Demo agent" → type a prompt → the answer
// streams into the chat panel. Then the guided tour: a plan, a tool call and a permission dialog answered
// from the keyboard. Screenshots: test-results/screenshots/<version>/new-session-*.png
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { sendSlashCommand } from './scriptedSession.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const name = 'new-session';
export const sharedWindow = true;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.newSession'));

  // the agent picker (a QuickPick): choose the Demo agent
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Demo agent' });
  await row.first().waitFor({ timeout: 15_000 });
  t.expect(true, 'the agent picker lists the Demo agent');
  await page.keyboard.type('Demo');
  await page.keyboard.press('Enter');

  // the chat panel opens
  const chat = await t.webview({ timeoutMs: 30_000 });
  const input = chat.locator('[data-testid="composer-input"]');
  await input.waitFor({ timeout: 30_000 });
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  t.expect(true, 'the chat panel shows the session, ready');

  // type a prompt like a person and press Enter
  await input.click();
  await page.keyboard.type('Hello! What can you do?');
  await page.keyboard.press('Enter');
  await chat.locator('[data-testid="user-message"]', { hasText: 'What can you do?' }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the prompt shows in the transcript at once');
  const answer = chat.locator('[data-testid="agent-message"]').first();
  await answer.filter({ hasText: 'Switchboard demo agent' }).waitFor({ timeout: 20_000 });
  t.expect(true, 'the streamed answer appears in the panel');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 30_000 });
  const text = await chat.locator('[data-testid="agent-message"]').allTextContents();
  t.expect(text.join('\n').length > 200, `the whole answer streamed in (${text.join('').length} characters)`);
  await t.screenshot('new-session-answer');

  // the tour: a plan, tool calls and a permission request answered with the keyboard
  await sendSlashCommand(t, input, '/tour');
  const dialog = chat.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 30_000 });
  t.expect(await chat.locator('[data-testid="plan"]').count() === 1, 'the plan is shown');
  // the request takes the focus unless the user is typing; Ctrl+Shift+A reaches it either way
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+Shift+A' : 'Control+Shift+A');
  const focusedKind = await chat.locator('[data-testid="permission-option"]:focus').first().getAttribute('data-kind').catch(() => null);
  t.expect(focusedKind !== null, `the permission dialog has the focus (${focusedKind})`);
  await chat.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 5_000 });
  const shot = await t.screenshot('new-session-permission');
  // the README's screenshot is this one: SWITCHBOARD_DOCS_SCREENSHOTS=1 npm run test:ui refreshes it
  if (process.env.SWITCHBOARD_DOCS_SCREENSHOTS === '1' && t.version === '1.139.1') {
    fs.mkdirSync(path.join(repoRoot, 'docs', 'screenshots'), { recursive: true });
    fs.copyFileSync(shot, path.join(repoRoot, 'docs', 'screenshots', 'chat-tour.png'));
  }
  await chat.locator('[data-testid="permission-option"][data-kind="allow_once"]').first().click();
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(true, 'answering the dialog closes it');
  await chat.locator('[data-testid="session-status"][data-status="idle"]').waitFor({ timeout: 60_000 });
  t.expect(await chat.locator('[data-testid="tool-call"]').count() >= 2, 'tool-call cards are shown');
  await t.screenshot('new-session-tour');
}
