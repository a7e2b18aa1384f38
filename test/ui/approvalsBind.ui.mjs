// @ts-check
// Approvals bind: what the user answered to a permission request is what the agent may do, against the scripted
// agent of test/fixtures/agents/scenarios/approvalsBind.json (one prompt per case), with
// `switchboard.permissions.uncoveredActions: "ask"` (the product's default) and `autoApprove: "reads"`:
// - write after reject: the user rejects an edit of a.txt; the agent's `fs/write_text_file` of a.txt in the same
//   turn fails with -32003, a.txt is unchanged on disk, and the transcript shows a warning that names a.txt;
// - command swap: the user allows `echo hi`; the agent's `terminal/create` of `touch pwned` does not run but
//   brings a card of the client's own (`switchboard-check-…`) that shows both command lines; Refuse fails the
//   `terminal/create` and `pwned` never appears;
// - uncovered write: a write of b.txt that no answer covers asks in a card of the client's (Allow once, Allow writes
//   in this session, Refuse); Allow once lets it happen;
// - reads by content: a request declared a read of README.md whose raw input is a command is asked (the user
//   rejects it; src/ stays), a genuine read of README.md is still answered automatically;
// - and what was approved runs: `echo hi`, allowed, runs without a further question.
// Screenshots: test-results/screenshots/<version>/approvals-bind-refused.png (the warning after the refused write),
// approvals-bind-swap.png (the client's card with both command lines).
import fs from 'node:fs';
import path from 'node:path';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'approvals-bind';
export const sharedWindow = true;
export const settings = {
  'switchboard.agents': [scriptedAgent('scripted-approvals-bind', 'Scripted approvals bind', 'approvalsBind')],
  'switchboard.permissions.uncoveredActions': 'ask',
  'switchboard.permissions.autoApprove': 'reads',
};
export const timeout = 150_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const chat = await openSession(t, 'Scripted approvals bind');
  const file = (/** @type {string} */ rel) => path.join(t.workspace, rel);
  const card = (/** @type {string} */ id) => chat.locator(`[data-tool-call-id="${id}"]`);
  const clientCards = chat.locator('[data-tool-call-id^="switchboard-check-"]');
  const dialogOf = (/** @type {import('playwright-core').Locator} */ c) => c.locator('[data-testid="permission"]');
  const echoed = (/** @type {string} */ step) => chat.locator('[data-testid="agent-message"]', { hasText: `[${step}] ` });

  /** The outcome the agent recorded for `step` (its echo `[step] outcome: text`), and the text. */
  const result = async (/** @type {string} */ step) => {
    const message = echoed(step).last();
    await message.waitFor({ timeout: 20_000 });
    const text = (await message.textContent()) ?? '';
    const m = new RegExp(`\\[${step.replace(/[-]/g, '\\-')}\\] ([^:\\s]+): ?([^\\n]*)`).exec(text);
    return { outcome: m?.[1] ?? '', text: m?.[2] ?? '' };
  };
  /** Waits for the first of two things to show; true when it is `a`. */
  const firstOf = async (/** @type {import('playwright-core').Locator} */ a, /** @type {import('playwright-core').Locator} */ b, timeoutMs = 20_000) => {
    await a.or(b).first().waitFor({ timeout: timeoutMs });
    return (await a.count()) > 0;
  };
  /** Clicks an option of the card's permission dialog once the dialog is armed (it ignores clicks for 300 ms). */
  const answer = async (/** @type {import('playwright-core').Locator} */ c, /** @type {string} */ option) => {
    await c.locator('[data-testid="permission"][data-armed]').waitFor({ timeout: 10_000 });
    await c.locator(`[data-testid="permission"] [data-testid="permission-option"]${option}`).click();
  };
  const prompt = async (/** @type {string} */ text) => {
    await sendPrompt(t, chat, text);
    await chat.locator('[data-testid="user-message"]', { hasText: text }).waitFor({ timeout: 10_000 });
  };
  const optionsOf = (/** @type {import('playwright-core').Locator} */ c) => c.locator('[data-testid="permission-option"]')
    .evaluateAll((os) => os.map((o) => `${o.getAttribute('data-kind')}:${o.textContent?.trim()}`));
  // every tool call that ever showed a permission dialog (an automatic answer shows none)
  await chat.locator('body').evaluate(() => {
    /** @type {Window & { __sbAsked?: Set<string> }} */
    const w = window;
    const asked = new Set();
    w.__sbAsked = asked;
    const note = () => document.querySelectorAll('[data-testid="permission"]').forEach((d) => asked.add(d.closest('[data-tool-call-id]')?.getAttribute('data-tool-call-id') ?? '?'));
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
  });
  const asked = () => chat.locator('body').evaluate(() => [.../** @type {Window & { __sbAsked?: Set<string> }} */ (window).__sbAsked ?? []]);

  // 1. write after reject
  fs.writeFileSync(file('a.txt'), 'original\n');
  await prompt('Case write-after-reject: edit a.txt');
  await dialogOf(card('tc-edit-a')).waitFor({ timeout: 20_000 });
  await answer(card('tc-edit-a'), '[data-option-id="reject-once"]');
  t.expect((await result('edit-a')).outcome === 'reject-once', 'the user rejected the edit of a.txt');
  const refusedAtOnce = await firstOf(echoed('write-after-reject'), dialogOf(clientCards));
  t.expect(refusedAtOnce, 'the write after the rejection is refused without a question (no card of the client\'s)');
  const written = await result('write-after-reject');
  t.expect(written.outcome === 'error' && /^-32003\b/.test(written.text), `the agent's fs/write_text_file of a.txt failed with -32003 (${written.outcome}: ${written.text})`);
  await idle(chat);
  t.expect(fs.readFileSync(file('a.txt'), 'utf8') === 'original\n', 'a.txt is unchanged on disk');
  const notice = chat.locator('[data-testid="notice"][data-level="warning"]').filter({ hasText: /refused/i }).filter({ hasText: 'a.txt' });
  await notice.waitFor({ timeout: 10_000 });
  t.expect(true, `the transcript warns of the refused write: "${(await notice.first().textContent())?.trim()}"`);
  t.expect(await clientCards.count() === 0, 'no card of the client\'s came up for it');
  await notice.first().scrollIntoViewIfNeeded();
  await t.screenshot('approvals-bind-refused');

  // 2. command swap
  await prompt('Case command-swap: run echo hi');
  await dialogOf(card('tc-swap')).waitFor({ timeout: 20_000 });
  await answer(card('tc-swap'), '[data-option-id="allow-once"]');
  t.expect((await result('swap-ask')).outcome === 'allow-once', 'the user allowed `echo hi`');
  const swapCard = clientCards.last();
  const swapAsked = await firstOf(dialogOf(swapCard), echoed('swap'));
  t.expect(swapAsked, `the swapped command brings a card of the client's instead of running${swapAsked ? '' : ` (the agent got: ${JSON.stringify(await result('swap'))})`}`);
  t.expect(!fs.existsSync(file('pwned')), 'nothing ran while the question is open: no pwned');
  const shown = (await swapCard.innerText()).replace(/\s+/g, ' ');
  t.expect(shown.includes('echo hi') && shown.includes('touch pwned'), `the card shows the approved command line and the new one (${shown})`);
  t.expect(/Switchboard asks/.test(shown) && !/The agent asks for permission/.test(shown), 'the card says that Switchboard asks, not the agent');
  t.log(`the client's card: ${shown}`);
  const swapOptions = await optionsOf(swapCard);
  t.expect(swapOptions.includes('allow_once:Allow once') && swapOptions.includes('reject_once:Refuse'), `its options: Allow once and Refuse (${swapOptions.join(', ')})`);
  await swapCard.locator('[data-testid="permission"][data-armed]').waitFor({ timeout: 10_000 });
  await swapCard.scrollIntoViewIfNeeded();
  await t.screenshot('approvals-bind-swap');
  await answer(swapCard, '[data-kind="reject_once"]');
  const swap = await result('swap');
  t.expect(swap.outcome === 'error', `Refuse: the agent's terminal/create failed (${swap.outcome}: ${swap.text})`);
  await idle(chat);
  t.expect(!fs.existsSync(file('pwned')), 'the swapped command never ran: no pwned in the workspace');

  // 3. uncovered write
  const before3 = await clientCards.count();
  await prompt('Case uncovered-write: write b.txt');
  const writeCard = clientCards.nth(before3);
  const writeAsked = await firstOf(dialogOf(writeCard), echoed('uncovered-write'));
  t.expect(writeAsked, `a write no answer covers is asked about in a card of the client's${writeAsked ? '' : ` (the agent got: ${JSON.stringify(await result('uncovered-write'))})`}`);
  t.expect(!fs.existsSync(file('b.txt')), 'b.txt is not written while the question is open');
  const writeShown = (await writeCard.innerText()).replace(/\s+/g, ' ');
  t.expect(writeShown.includes('b.txt'), `the card names b.txt (${writeShown})`);
  const writeOptions = (await optionsOf(writeCard)).map((o) => o.replace(/^[^:]*:/, ''));
  t.expect(['Allow once', 'Allow writes in this session', 'Refuse'].every((o) => writeOptions.includes(o)), `its options: Allow once, Allow writes in this session, Refuse (${writeOptions.join(', ')})`);
  await answer(writeCard, '[data-kind="allow_once"]');
  const uncovered = await result('uncovered-write');
  t.expect(uncovered.outcome === 'ok', `Allow once: the write went through (${uncovered.outcome}: ${uncovered.text})`);
  await idle(chat);
  t.expect(fs.existsSync(file('b.txt')) && fs.readFileSync(file('b.txt'), 'utf8') === 'written once the user allowed it\n', 'b.txt has the agent\'s content on disk');

  // 4. autoApprove "reads" goes by what a request does, not by its declared kind
  await prompt('Case reads-by-content: read README.md');
  const fakeAsked = await firstOf(dialogOf(card('tc-fake-read')), echoed('fake-read'));
  t.expect(fakeAsked, `a "read" whose raw input is \`rm -rf src\` is not approved automatically${fakeAsked ? '' : ` (the agent got: ${JSON.stringify(await result('fake-read'))})`}`);
  await answer(card('tc-fake-read'), '[data-option-id="reject-once"]');
  t.expect((await result('fake-read')).outcome === 'reject-once', 'the user rejected it');
  const realAuto = await firstOf(echoed('real-read'), dialogOf(card('tc-real-read')));
  t.expect(realAuto, 'a genuine read of README.md came back without a question');
  t.expect((await result('real-read')).outcome === 'allow-once', 'it was answered with the allow option (allow-once)');
  await idle(chat);
  const everAsked = await asked();
  t.expect(everAsked.includes('tc-fake-read') && !everAsked.includes('tc-real-read'), `a dialog showed for the disguised command only (dialogs: ${everAsked.join(', ')})`);
  const autoOutcome = (await card('tc-real-read').locator('[data-testid="permission-outcome"]').textContent()) ?? '';
  t.expect(/auto-approved/i.test(autoOutcome), `the transcript shows the automatic answer (${autoOutcome.trim()})`);
  t.expect(fs.existsSync(file('src/hello.ts')) && fs.existsSync(file('src/math.ts')), 'src/ is untouched');

  // 5. what was approved runs, without a further question
  const before5 = await clientCards.count();
  await prompt('Case approved-command: run echo hi');
  await dialogOf(card('tc-approved')).waitFor({ timeout: 20_000 });
  await answer(card('tc-approved'), '[data-option-id="allow-once"]');
  const ranAtOnce = await firstOf(echoed('approved-run'), dialogOf(clientCards.nth(before5)));
  t.expect(ranAtOnce, 'the approved command runs without a card of the client\'s');
  const ran = await result('approved-run');
  t.expect(ran.outcome === 'exited' && /exitCode\W+0\b/.test(ran.text), `the agent's terminal ran \`echo hi\` (${ran.outcome}: ${ran.text})`);
  await idle(chat);
  t.expect(await clientCards.count() === before5, 'and no card of the client\'s came up');
}
