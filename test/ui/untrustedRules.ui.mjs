// @ts-check
// Approval rules in an untrusted workspace (Restricted Mode; docs/approvals.md, "Rules"): a cloned repository's
// .vscode/settings.json cannot allow itself anything. Against the scripted agent of
// test/fixtures/agents/scenarios/approvalRules.json (from the user's settings):
// - the workspace's allow rule `printf *` does not answer the agent's request for `printf offered`: the card asks;
// - the workspace's deny rule `rm -rf *` still denies a request over `rm -rf src`;
// - ACP: Manage Approval Rules lists the allow rule as not applying, and says why.
// Screenshot: test-results/screenshots/<version>/untrusted-rules-manage.png.
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'untrusted-rules';
export const trust = 'untrusted';
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-untrusted-rules', 'Scripted untrusted rules', 'approvalRules')],
  'switchboard.permissions.uncoveredActions': 'ask',
};
export const files = {
  '.vscode/settings.json': JSON.stringify({
    'switchboard.permissions.rules': [{ action: 'allow', command: 'printf *' }, { action: 'deny', command: 'rm -rf *' }],
  }, null, 2),
  'src/keep.txt': 'keep\n',
  'README.md': '# an untrusted project\n',
};
export const timeout = 120_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await page.locator('.monaco-workbench').getByText(/Restricted Mode/).first().waitFor({ timeout: 30_000 });
  const chat = await openSession(t, 'Scripted untrusted rules');
  const card = (/** @type {string} */ id) => chat.locator(`[data-tool-call-id="${id}"]`);
  const echoed = (/** @type {string} */ step) => chat.locator('[data-testid="agent-message"]', { hasText: `[${step}] ` });

  // the workspace's allow rule does not apply: the card asks
  await sendPrompt(t, chat, 'Case rule-offer');
  const dialog = card('tc-offer').locator('[data-testid="permission"][data-armed]');
  const asked = await dialog.waitFor({ timeout: 20_000 }).then(() => true, () => false);
  t.expect(asked, 'the untrusted workspace\'s allow rule `printf *` did not answer the request: the card asks');
  await dialog.locator('[data-option-id="reject-once"]').click();
  await echoed('rule-offer').waitFor({ timeout: 20_000 });
  t.expect(/\[rule-offer\] reject-once/.test((await echoed('rule-offer').textContent()) ?? ''), 'the user\'s answer went to the agent');
  await idle(chat);

  // its deny rule does
  await sendPrompt(t, chat, 'Case rule-denies');
  await echoed('rule-rm').waitFor({ timeout: 20_000 });
  t.expect(/\[rule-rm\] reject-once/.test((await echoed('rule-rm').textContent()) ?? ''), 'the workspace\'s deny rule still rejects `rm -rf src`');
  const denied = (await card('tc-rm').locator('[data-testid="permission-outcome"]').textContent())?.trim();
  t.expect(denied === 'Denied by the workspace rule `rm -rf *`', `the card names the deny rule: ${denied}`);
  await idle(chat);

  // the list says which rule does not apply, and why
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await t.runCommand(t.commandTitle('switchboard.manageRules'), { shows: rows.filter({ hasText: 'printf *' }) });
  const row = (await rows.filter({ hasText: 'printf *' }).first().innerText()).replace(/\n/g, ' ');
  t.expect(row.includes('Does not apply: this workspace is not trusted'), `the list marks the allow rule as not applying: ${row}`);
  await t.screenshot('untrusted-rules-manage');
  await page.keyboard.press('Escape');
}
