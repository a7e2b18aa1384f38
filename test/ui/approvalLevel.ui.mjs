// @ts-check
// The session's approval level (docs/approvals.md, "The approval level"), set by keyboard, against the scripted
// agent of test/fixtures/agents/scenarios/approvalRules.json with the allow rule `echo *` in the settings:
// - a new session is at "Allow by Rules": the chat header's button says "By rules", the status bar "Approvals: By rules";
// - Tab from the session title reaches the header's button, Enter opens the list of levels with "Allow by Rules"
//   active; ArrowUp, Enter picks "Ask for Everything": the header says "Ask all", the status bar "Approvals: Ask all";
// - at that level the request for `echo ruled` gets a card (the allow rule does not answer it) with no "Always
//   allow …" rule button; Ctrl+Shift+A, Enter allows it once; the agent's `bash -c 'echo again'`, which no answer
//   covers, is asked about too, in a card of the client's own, answered the same way;
// - a second new session is at "Allow by Rules" (the status bar follows the active chat), and there the rule
//   answers the same request, with no card (nor one for `bash -c 'echo again'`, which the rule covers);
// - after Developer: Reload Window the first chat still says "Ask all", and so does the status bar while it is active;
// - a click on the status bar item opens the list again, now ending with "Follow the Settings"; typing "Follow",
//   Enter gives the session the settings' level back: "By rules".
// Screenshots: test-results/screenshots/<version>/approval-level-picker.png (the list, opened from the header),
// approval-level-ask.png (the header's button and the status bar at Ask), approval-level-card.png (the card at Ask,
// without a rule button), approval-level-reloaded.png (after the reload), approval-level-settings.png (back at Rules).
import { idle, openSession, reloadWindowAndReopen, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'approval-level';
export const sharedWindow = true;
const agentName = 'Scripted approval level';
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-approval-level', agentName, 'approvalRules')],
  'switchboard.permissions.uncoveredActions': 'ask',
  'switchboard.permissions.rules': [{ action: 'allow', command: 'echo *' }],
};
export const timeout = 200_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
  let chat = await openSession(t, agentName);
  const levelButton = () => chat.locator('[data-testid="approval-level"]');
  // the item's DOM id is "<extension id>.switchboard.approvals"; a status bar message ("Approvals: Ask for
  // Everything", for some seconds after a choice) is another item
  const statusItem = page.locator('.statusbar-item[id$=".switchboard.approvals"]');
  const quickInput = page.locator('.quick-input-widget');
  const activeRow = quickInput.locator('.quick-input-list .monaco-list-row.focused');
  /** The labels of the list's rows in the order they show (a row's first label; its detail has one too). */
  const labels = () => quickInput.locator('.quick-input-list .monaco-list-row').evaluateAll((rs) => rs
    .map((r, i) => ({ at: Number(r.getAttribute('data-index') ?? i), label: r.querySelector('.label-name')?.textContent?.trim() ?? '' }))
    .filter((r) => r.label).sort((a, b) => a.at - b.at).map((r) => r.label));
  const echoed = (/** @type {string} */ step) => chat.locator('[data-testid="agent-message"]', { hasText: `[${step}] ` });
  const clientCards = () => chat.locator('[data-tool-call-id^="switchboard-check-"]');
  const done = () => chat.locator('[data-testid="agent-message"]', { hasText: 'Done with rule-allows.' });
  /** The header's button and the status bar show the level `short` ("Ask all", "By rules"), with its label in the tooltip. */
  const shows = async (/** @type {string} */ short, /** @type {string} */ label, /** @type {string} */ when) => {
    await chat.locator('[data-testid="approval-level"]', { hasText: new RegExp(`^\\s*${short}\\s*$`) }).waitFor({ timeout: 15_000 });
    const tooltip = (await levelButton().getAttribute('title')) ?? '';
    t.expect(tooltip.startsWith(`Approvals: ${label}.`), `${when}: the header's button says "${short}", its tooltip "${tooltip}"`);
    await statusItem.filter({ hasText: new RegExp(`^\\s*Approvals: ${short}\\s*$`) }).waitFor({ timeout: 15_000 });
    t.expect(true, `${when}: the status bar says "Approvals: ${short}"`);
  };

  // 1. a new session follows the settings: Allow by Rules
  await shows('By rules', 'Allow by Rules', 'a new session');

  // 2. the header's button, by keyboard: Tab from the title, Enter; the list has the current level active
  await chat.locator('[data-testid="session-title"]').focus();
  await page.keyboard.press('Tab');
  const focused = await chat.locator(':focus').first().getAttribute('data-testid').catch(() => null);
  t.expect(focused === 'approval-level', `Tab from the session title reaches the approval level button (focused: ${focused})`);
  await page.keyboard.press('Enter');
  const pickTitle = quickInput.locator('.quick-input-title', { hasText: new RegExp(`^Approvals: .+ · ${agentName}$`) });
  await pickTitle.waitFor({ timeout: 10_000 });
  t.expect(true, `Enter on it opened "${(await pickTitle.innerText()).trim()}"`);
  await activeRow.filter({ hasText: 'Allow by Rules' }).waitFor({ timeout: 10_000 });
  const rows = await labels();
  t.expect(JSON.stringify(rows) === JSON.stringify(['Ask for Everything', 'Allow by Rules', 'Allow Reads and Rules']), `the list offers the three levels, "Allow by Rules" active (no "Follow the Settings" yet): ${rows.join(' | ')}`);
  await t.screenshot('approval-level-picker');
  await page.keyboard.press('ArrowUp');
  await activeRow.filter({ hasText: 'Ask for Everything' }).waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
  await quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
  t.log('ArrowUp, Enter: picked "Ask for Everything"');
  await shows('Ask all', 'Ask for Everything', 'at Ask');
  await t.screenshot('approval-level-ask');

  // 3. at Ask the allow rule does not answer: a card without a rule button, answered by keyboard
  await sendPrompt(t, chat, 'Case rule-allows at Ask');
  // the scenario's request has the same tool call id each time: one card, the later turn's answers update it
  const card = chat.locator('[data-tool-call-id="tc-rule-echo"]').first();
  const dialog = card.locator('[data-testid="permission"]');
  await dialog.waitFor({ timeout: 20_000 });
  t.expect(true, 'at Ask the request for `echo ruled` shows a card: the allow rule `echo *` did not answer it');
  const kinds = await dialog.locator('[data-testid="permission-option"]').evaluateAll((os) => os.map((o) => o.getAttribute('data-kind')));
  t.expect(JSON.stringify(kinds) === JSON.stringify(['allow_once', 'allow_always', 'reject_once']), `the card offers the agent's options and no rule button: ${kinds.join(', ')}`);
  t.expect(await dialog.locator('[data-testid="permission-option"][data-kind="rule"]').count() === 0, 'no "Always allow …" button');
  await card.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 5_000 });
  await card.scrollIntoViewIfNeeded();
  await t.screenshot('approval-level-card');
  await page.keyboard.press(`${mod}+Shift+A`);
  const first = await chat.locator('[data-testid="permission-option"]:focus').getAttribute('data-option-id').catch(() => null);
  t.expect(first === 'allow-once', `${mod}+Shift+A moved the focus to "Allow once" (${first})`);
  await page.keyboard.press('Enter');
  await echoed('rule-echo').first().waitFor({ timeout: 20_000 });
  t.expect(/\[rule-echo\] allow-once/.test((await echoed('rule-echo').first().textContent()) ?? ''), 'Enter allowed it once: the agent got allow-once');
  const answered = (await card.locator('[data-testid="permission-outcome"]').textContent())?.trim() ?? '';
  t.expect(!/rule/.test(answered), `the card says the user answered, not a rule: ${answered}`);
  // the agent's `bash -c 'echo again'`, which no answer covers: asked about too, though the rule covers it
  const check = clientCards().last();
  await check.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 20_000 });
  const checkKinds = await check.locator('[data-testid="permission-option"]').evaluateAll((os) => os.map((o) => o.getAttribute('data-kind')));
  t.expect(((await check.textContent()) ?? '').includes('echo again') && !checkKinds.includes('rule'), `the command no answer covers is asked about in a card of the client's own, without a rule button: ${checkKinds.join(', ')}`);
  await page.keyboard.press(`${mod}+Shift+A`);
  await page.keyboard.press('Enter');
  await done().first().waitFor({ timeout: 20_000 });
  t.expect(/\[rule-echo-other\] (?!error)/.test((await echoed('rule-echo-other').first().textContent()) ?? ''), 'Ctrl+Shift+A, Enter allowed it once, and it ran');
  await idle(chat);
  const title = (await chat.locator('[data-testid="session-title"]').innerText()).trim();
  t.log(`the session is titled "${title}"`);

  // 4. a second new session follows the settings: Rules, and there the allow rule answers the same request, with no
  // card (nor one for `bash -c 'echo again'`, which the rule covers); the status bar shows the active session's level
  chat = await openSession(t, agentName);
  await shows('By rules', 'Allow by Rules', 'a second new session');
  await sendPrompt(t, chat, 'Case rule-allows at Rules');
  await done().first().waitFor({ timeout: 30_000 });
  await idle(chat);
  t.expect(/\[rule-echo\] allow-once/.test((await echoed('rule-echo').first().textContent()) ?? ''), 'at Rules the allow rule `echo *` answered the request for `echo ruled` (allow-once)');
  const ruled = (await chat.locator('[data-tool-call-id="tc-rule-echo"] [data-testid="permission-outcome"]').first().textContent())?.trim() ?? '';
  t.expect(/^Allowed by .*rule `echo \*`$/.test(ruled), `the card names the rule: ${ruled}`);
  t.expect(await chat.locator('[data-testid="permission"]').count() === 0 && await clientCards().count() === 0, 'no card asked, not even for `bash -c \'echo again\'` (the rule covers it)');

  // 5. the first session's level is kept across a window reload (its chat comes back read-only: the scripted agent
  // keeps its sessions in memory, and its new process cannot reopen them)
  chat = await reloadWindowAndReopen(t, title, `${title} · ${agentName}`);
  await chat.locator('[data-testid="approval-level"]').waitFor({ timeout: 60_000 });
  await shows('Ask all', 'Ask for Everything', 'after Reload Window, the first session');
  await t.screenshot('approval-level-reloaded');

  // 6. from the status bar: Follow the Settings
  await statusItem.click();
  await quickInput.locator('.quick-input-title', { hasText: `Approvals: ${title} · ${agentName}` }).waitFor({ timeout: 10_000 });
  t.expect(true, `a click on the status bar item opened "Approvals: ${title} · ${agentName}"`);
  await activeRow.filter({ hasText: 'Ask for Everything' }).waitFor({ timeout: 10_000 });
  const again = await labels();
  t.expect(again.at(-1) === 'Follow the Settings', `"Ask for Everything" is active, "Follow the Settings" last: ${again.join(' | ')}`);
  await page.keyboard.type('Follow');
  await activeRow.filter({ hasText: 'Follow the Settings' }).waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
  await quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
  t.log('typed "Follow", Enter: picked "Follow the Settings"');
  await shows('By rules', 'Allow by Rules', 'following the settings again');
  await t.screenshot('approval-level-settings');
}
