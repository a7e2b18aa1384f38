// @ts-check
// Approval rules (docs/approvals.md, "Rules"), made, used, edited and removed by keyboard only, against the scripted
// agent of test/fixtures/agents/scenarios/approvalRules.json (one prompt per case):
// - a deny rule of the workspace (`rm -rf *`) answers a request titled "Read README.md" over `rm -rf src` with the
//   agent's reject option, the card says which rule, and the agent's `terminal/create` of `rm -rf src` after it is
//   refused (-32003): src/ stays;
// - a waiting card offers "Always allow printf offered…": Ctrl+Shift+A, End, Enter opens the rule editor in the
//   workbench's quick input; Enter keeps the exact command, Enter picks "Always allow in this workspace", and the
//   input box says what the rule matches and that the request would be allowed; Enter saves it, and the card is
//   answered with the agent's allow-once option, naming the rule;
// - the same request again is answered by the rule without a dialog;
// - ACP: Manage Approval Rules lists the rule with its match count; Enter on it, Edit…, makes it `printf *`;
//   Enter on it, Remove, removes it from the workspace settings.
// Screenshots: test-results/screenshots/<version>/approval-rules-editor.png (the input box with what the rule
// matches), approval-rules-answered.png (the card answered by the rule), approval-rules-manage.png (the list).
import fs from 'node:fs';
import path from 'node:path';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'approval-rules';
export const sharedWindow = true;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-approval-rules', 'Scripted approval rules', 'approvalRules')],
  'switchboard.permissions.uncoveredActions': 'ask',
  'switchboard.permissions.rules': [{ action: 'deny', command: 'rm -rf *' }],
};
export const timeout = 150_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const chat = await openSession(t, 'Scripted approval rules');
  const card = (/** @type {string} */ id) => chat.locator(`[data-tool-call-id="${id}"]`);
  const echoed = (/** @type {string} */ step) => chat.locator('[data-testid="agent-message"]', { hasText: `[${step}] ` });
  const outcomeOf = async (/** @type {string} */ step) => {
    const message = echoed(step).last();
    await message.waitFor({ timeout: 20_000 });
    return /\[[\w-]+\] ([^:\s]+)/.exec((await message.textContent()) ?? '')?.[1] ?? '';
  };
  const prompt = async (/** @type {string} */ text) => {
    await sendPrompt(t, chat, text);
    await chat.locator('[data-testid="user-message"]', { hasText: text }).last().waitFor({ timeout: 10_000 });
  };
  const quickInput = page.locator('.quick-input-widget');
  const rows = quickInput.locator('.quick-input-list .monaco-list-row');
  const settingsFile = path.join(t.workspace, '.vscode', 'settings.json');
  const workspaceRules = () => {
    try {
      return JSON.stringify(JSON.parse(fs.readFileSync(settingsFile, 'utf8'))['switchboard.permissions.rules'] ?? []);
    } catch {
      return '(unreadable)';
    }
  };
  const enterOn = async (/** @type {string} */ title, /** @type {string} */ why) => {
    await quickInput.locator('.quick-input-title', { hasText: title }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    t.log(why);
  };

  // 1. a deny rule of the workspace answers a lying "read", and refuses the command run behind it
  fs.mkdirSync(path.join(t.workspace, 'src'), { recursive: true });
  await prompt('Case rule-denies');
  t.expect(await outcomeOf('rule-rm') === 'reject-once', 'the deny rule answered the request with the agent\'s reject-once option');
  const denied = (await card('tc-rm').locator('[data-testid="permission-outcome"]').textContent())?.trim();
  t.expect(denied === 'Denied by the workspace rule `rm -rf *`', `the card names the rule: ${denied}`);
  t.expect(await outcomeOf('rule-rm-run') === 'error' && /\] error: -32003/.test((await echoed('rule-rm-run').textContent()) ?? ''), 'the agent\'s rm -rf src afterwards was refused with -32003');
  t.expect(fs.existsSync(path.join(t.workspace, 'src')), 'src/ is still there');
  await idle(chat);

  // 2. make a rule from a waiting card, by keyboard
  await prompt('Case rule-offer');
  const dialog = card('tc-offer').locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 20_000 });
  const ruleButton = dialog.locator('[data-testid="permission-option"][data-kind="rule"]');
  t.expect((await ruleButton.textContent())?.trim() === 'Always allow printf offered…', 'the card offers "Always allow printf offered…"');
  await chat.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 5_000 });
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+Shift+A' : 'Control+Shift+A');
  await page.keyboard.press('End');
  t.expect(await chat.locator('[data-testid="permission-option"]:focus').getAttribute('data-kind') === 'rule', 'Ctrl+Shift+A, End: the rule button has the focus');
  await page.keyboard.press('Enter');
  await quickInput.locator('.quick-input-title', { hasText: '(1/3)' }).waitFor({ timeout: 10_000 });
  const offered = await rows.allInnerTexts();
  t.expect(offered.some((r) => r.includes('printf offered')) && offered.some((r) => r.includes('printf offered *')) && offered.some((r) => r.includes('printf *')), `the editor offers the exact command and the command with any arguments: ${offered.map((r) => r.split('\n')[0]).join(' | ')}`);
  await enterOn('(1/3)', 'kept the exact command (picked by default)');
  await quickInput.locator('.quick-input-title', { hasText: '(2/3)' }).waitFor({ timeout: 10_000 });
  t.expect((await rows.first().innerText()).includes('Always allow in this workspace'), 'the first place offered is this workspace');
  await enterOn('(2/3)', 'picked "Always allow in this workspace"');
  await quickInput.locator('.quick-input-title', { hasText: '(3/3)' }).waitFor({ timeout: 10_000 });
  const message = quickInput.locator('.quick-input-message');
  await message.filter({ hasText: 'would be allowed' }).waitFor({ timeout: 10_000 });
  const says = (await message.innerText()).trim();
  t.expect(says.includes('exactly the command `printf offered`') && says.includes('allowed by the workspace rule `printf offered`'), `the input box says what the rule matches and what it does to this request: ${says}`);
  await t.screenshot('approval-rules-editor');
  await page.keyboard.press('Enter');
  t.expect(await outcomeOf('rule-offer') === 'allow-once', 'saving the rule answered the card with the agent\'s allow-once option');
  const answered = card('tc-offer').locator('[data-testid="permission-outcome"]');
  await answered.waitFor({ timeout: 10_000 });
  t.expect((await answered.textContent())?.trim() === 'Allowed by the workspace rule `printf offered`', 'the card names the rule that answered');
  t.expect(workspaceRules() === JSON.stringify([{ action: 'deny', command: 'rm -rf *' }, { action: 'allow', command: 'printf offered' }]), `the rule is in the workspace settings: ${workspaceRules()}`);
  await answered.scrollIntoViewIfNeeded();
  await t.screenshot('approval-rules-answered');
  await idle(chat);
  const flagged = (await chat.locator('[data-testid="notice"]', { hasText: 'Switchboard flagged' }).allInnerTexts()).join(' | ');
  t.expect(flagged.includes('"Read README.md" was declared a read but carries a command'), `the lying "read" of case 1 is flagged: ${flagged}`);
  t.expect(!flagged.includes('settings.json'), 'the workspace settings the rule was saved in are not flagged as the agent\'s change');

  // 3. the rule answers the next request: no dialog
  await prompt('Case rule-offer again');
  await echoed('rule-offer').nth(1).waitFor({ timeout: 20_000 });
  t.expect(/\[rule-offer\] allow-once/.test((await echoed('rule-offer').nth(1).textContent()) ?? ''), 'the second request was answered by the rule');
  await idle(chat);

  // 4. manage: the list, the count, edit and remove, by keyboard
  await t.runCommand(t.commandTitle('switchboard.manageRules'), { shows: rows.filter({ hasText: 'printf offered' }) });
  const row = rows.filter({ hasText: 'printf offered' }).first();
  const rowText = (await row.innerText()).replace(/\n/g, ' ');
  t.expect(rowText.includes('matched 2 times') && rowText.includes('workspace settings'), `the list shows the rule, where it lives and its match count: ${rowText}`);
  await t.screenshot('approval-rules-manage');
  await page.keyboard.type('printf offered');
  await page.keyboard.press('Enter');
  await quickInput.locator('.quick-input-title', { hasText: 'Rule printf offered' }).waitFor({ timeout: 10_000 });
  await page.keyboard.type('Edit');
  await page.keyboard.press('Enter');
  await enterOn('(2/3)', 'kept "Always allow in this workspace"');
  await quickInput.locator('.quick-input-title', { hasText: '(3/3)' }).waitFor({ timeout: 10_000 });
  await page.waitForFunction(() => document.activeElement?.tagName === 'INPUT' && !!document.activeElement.closest('.quick-input-widget'), undefined, { timeout: 5_000 });
  t.expect(true, 'the rule\'s input box has the keyboard');
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+A' : 'Control+A');
  await page.keyboard.type('printf *');
  await page.keyboard.press('Enter');
  const edited = rows.filter({ hasText: 'printf *' }).first();
  await edited.waitFor({ timeout: 10_000 });
  t.expect(workspaceRules() === JSON.stringify([{ action: 'deny', command: 'rm -rf *' }, { action: 'allow', command: 'printf *' }]), `the edited rule replaced the old one: ${workspaceRules()}`);
  await page.keyboard.type('printf *');
  await page.keyboard.press('Enter');
  await quickInput.locator('.quick-input-title', { hasText: 'Rule printf *' }).waitFor({ timeout: 10_000 });
  await page.keyboard.type('Remove');
  await page.keyboard.press('Enter');
  await rows.filter({ hasText: 'rm -rf *' }).first().waitFor({ timeout: 10_000 });
  const printfRows = async () => (await rows.allInnerTexts()).filter((r) => r.includes('printf'));
  for (const end = Date.now() + 10_000; (await printfRows()).length > 0 && Date.now() < end;) await page.waitForTimeout(100);
  const left = await printfRows();
  t.expect(left.length === 0, `the list no longer shows the rule${left.length ? `: ${left.join(' | ')}` : ''}`);
  t.expect(workspaceRules() === JSON.stringify([{ action: 'deny', command: 'rm -rf *' }]), `the rule is removed: ${workspaceRules()}`);
  await page.keyboard.press('Escape');
}
