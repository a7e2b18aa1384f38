// @ts-check
// Worktrees and Ask Several Agents (docs/worktrees.md), with real git and three scripted agents on the other end of
// their pipes, through the workbench:
// - the workspace is a git repository on main with one commit; ACP: Ask Several Agents… is driven by keyboard: three
//   agents picked in the multi-select, the prompt, the check `grep -q hello greeting.txt`;
// - each run changes greeting.txt its own way (A "hello from A", B "hello from B", C "bye from C", through the
//   client's fs) and writes notes/<name>.md itself; the compare view shows three rows, each with its diff, its
//   files, its tokens and cost, and its check: passed, passed, failed;
// - Merge on A: main has exactly A's change (greeting.txt and notes/a.md, nothing of B or C);
// - the compare view then offers no Merge for another run; ACP: Merge Worktree into Base Branch on B's branch (a
//   pick): both added greeting.txt, a conflict: VS Code's merge editor opens on it; its Accept (the session's side),
//   save, ACP: Complete Merge: main has B's greeting and a merge commit;
// - Discard on C (a modal, "Discard Worktree, Keep Branch"): its folder is gone, its branch stays, main untouched;
// - the Sessions view shows each run's branch under its session;
// - a second fan-out whose agents are still working when the window reloads (Developer: Reload Window): the compare
//   view comes back with both runs "Interrupted", their worktrees are still there, and Open Chat reopens one.
// Screenshots: test-results/screenshots/<version>/worktrees-compare.png (also -light), worktrees-merge-editor.png,
// worktrees-after-reload.png.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { scriptedAgent } from './scriptedSession.mjs';

export const name = 'worktrees';
const agent = (/** @type {string} */ id, /** @type {string} */ label, /** @type {string} */ greeting, delayScale = '0') => {
  const a = scriptedAgent(id, label, 'fanOut', delayScale);
  return { ...a, env: { ...a.env, GREETING: greeting, NAME: id.slice(-1) } };
};
export const settings = {
  'switchboard.agents': [
    agent('fan-a', 'Fan Agent A', 'hello from A'),
    agent('fan-b', 'Fan Agent B', 'hello from B'),
    agent('fan-c', 'Fan Agent C', 'bye from C'),
    agent('fan-s', 'Fan Agent Slow', 'slow', '1'),
  ],
};
export const files = { 'README.md': '# Fan-out\n', 'src/app.txt': 'app\n' };
export const timeout = 300_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: t.workspace, encoding: 'utf8' }).trim();
  git('-c', 'init.defaultBranch=main', 'init', '-q');
  git('config', 'user.name', 'Tester');
  git('config', 'user.email', 'tester@example.invalid');
  git('add', '-A');
  git('commit', '-qm', 'base');
  const base = git('rev-parse', 'HEAD');

  // 1. Ask Several Agents, by keyboard
  const fanOut = async (/** @type {string[]} */ agents, /** @type {string} */ prompt, /** @type {string | undefined} */ check) => {
    const input = page.locator('.quick-input-widget input').first();
    // a modal that just closed gives the focus back to the compare view's button a moment later (later on a loaded
    // machine), which closes a picker opened in between and so ends the flow: then it starts again (nothing has
    // started before the prompt is given)
    for (let attempt = 1; ; attempt++) {
      await t.runCommand('ACP: Ask Several Agents…');
      await input.waitFor({ timeout: 15_000 });
      const reachedPrompt = await (async () => {
        if (!await input.fill(agents[0], { timeout: 5_000 }).then(() => true, () => false)) return false;
        for (const a of agents) {
          await input.fill(a, { timeout: 5_000 });
          const row = page.locator('.quick-input-list .monaco-list-row', { hasText: a }).first();
          await row.waitFor({ timeout: 10_000 });
          await page.keyboard.press('ArrowDown');
          await page.keyboard.press('Space');
          await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]', { hasText: a }).first().waitFor({ timeout: 5_000 });
        }
        await input.fill('', { timeout: 5_000 });
        await page.keyboard.press('Enter');
        if (agents.length === 1) { // one agent: how many runs
          await page.locator('.quick-input-list .monaco-list-row', { hasText: /^2\s*runs$/ }).first().waitFor({ timeout: 10_000 });
          await page.keyboard.press('Enter');
        }
        await page.locator('.quick-input-widget', { hasText: 'The prompt every run gets' }).waitFor({ timeout: 10_000 });
        return true;
      })().catch(() => false);
      if (reachedPrompt) break;
      if (attempt === 3) throw new Error('Ask Several Agents: its pickers closed before the prompt, three times');
      t.log(`a picker of Ask Several Agents closed before it was used (attempt ${attempt}); starting again`);
      await page.keyboard.press('Escape');
    }
    await page.keyboard.type(prompt);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'No check' }).first().waitFor({ timeout: 10_000 });
    if (!check) {
      await page.keyboard.press('Enter');
    } else {
      await page.keyboard.type('Command Line');
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'The command line to run in each worktree' }).waitFor({ timeout: 10_000 });
      await page.keyboard.press('Control+A');
      await page.keyboard.type(check);
      await page.keyboard.press('Enter');
    }
    return t.webviewByTitle(/^Compare: /, { timeoutMs: 30_000 });
  };
  let compare = await fanOut(['Fan Agent A', 'Fan Agent B', 'Fan Agent C'], 'Say hello in greeting.txt', 'grep -q hello greeting.txt');
  const rows = compare.locator('[data-testid="compare-row"]');
  await rows.nth(2).waitFor({ timeout: 30_000 });
  t.expect(await rows.count() === 3, 'the compare view has a row per run');
  const rowOf = (/** @type {string} */ label) => compare.locator('[data-testid="compare-row"]', { hasText: label });
  const detailsOf = async (/** @type {string} */ label) => {
    const id = await rowOf(label).getAttribute('data-run-id');
    return compare.locator(`tr.details-row[data-run-id="${id}"]`);
  };
  for (const [label, state] of [['Fan Agent A', 'passed'], ['Fan Agent B', 'passed'], ['Fan Agent C', 'failed']]) {
    await rowOf(label).locator(`[data-testid="compare-check"][data-state="${state}"]`).waitFor({ timeout: 60_000 });
    t.expect(true, `${label}: its check ${state}`);
  }
  await t.runCommand('Notifications: Clear All Notifications');
  await (await detailsOf('Fan Agent C')).locator('summary').click();
  await compare.locator('h1').scrollIntoViewIfNeeded();
  await t.screenshot('worktrees-compare');
  // the same view in a light theme: only theme colours
  await t.runCommand('Preferences: Toggle between Light/Dark Themes');
  await page.locator('.monaco-workbench.vs').waitFor({ timeout: 15_000 });
  await page.waitForTimeout(500);
  await t.screenshot('worktrees-compare-light');
  await t.runCommand('Preferences: Toggle between Light/Dark Themes');
  await page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 15_000 });
  for (const [label, greeting, note] of [['Fan Agent A', 'hello from A', 'notes/a.md'], ['Fan Agent B', 'hello from B', 'notes/b.md'], ['Fan Agent C', 'bye from C', 'notes/c.md']]) {
    const details = await detailsOf(label);
    if (!await details.locator('details[open]').count()) await details.locator('summary').click();
    // a diff is drawn once its section is open (the toggle event comes after the click)
    await details.locator('[data-testid="compare-diff"]', { hasText: greeting }).waitFor({ timeout: 10_000 }).catch(() => undefined);
    const diff = await details.locator('[data-testid="compare-diff"]').innerText();
    const listed = await details.locator('[data-testid="compare-files"]').innerText();
    t.expect(diff.includes(`+${greeting}`) && listed.includes('greeting.txt') && listed.includes(note), `${label}: its diff and files (${listed.replace(/\s+/g, ' ')})`);
    const usage = await rowOf(label).innerText();
    t.expect(/1\.2k/.test(usage) && /\$0\.02/.test(usage), `${label}: tokens and cost (${usage.replace(/\s+/g, ' ')})`);
  }

  // the Sessions view: each run's branch under its session
  await t.runCommand('View: Show Switchboard');
  const branchRows = page.locator('.monaco-list-row', { hasText: /switchboard\/fan-[abc]-say-hello/ });
  await branchRows.first().waitFor({ timeout: 20_000 });
  t.expect(await branchRows.count() >= 3, `the Sessions view shows the branches (${await branchRows.count()})`);

  // 2. Merge A: main has exactly A's change
  await page.locator('.tabs-container .tab', { hasText: 'Compare: Say hello' }).first().click();
  compare = await t.webviewByTitle(/^Compare: /, { timeoutMs: 20_000 });
  await (await detailsOf('Fan Agent A')).locator('[data-testid="compare-merge"]').click();
  const mergedA = page.locator('.notifications-toasts, .notification-list-item', { hasText: /Merged switchboard\/.* into main/ });
  await page.locator('.monaco-dialog-box', { hasText: 'has changes that are not committed' }).or(mergedA).first().waitFor({ timeout: 20_000 });
  if (await page.locator('.monaco-dialog-box').count()) await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Commit and Merge' }).click();
  for (let i = 0; i < 40 && git('rev-parse', 'HEAD') === base; i++) await page.waitForTimeout(250);
  const readBase = (/** @type {string} */ f) => fs.existsSync(path.join(t.workspace, f)) ? fs.readFileSync(path.join(t.workspace, f), 'utf8') : undefined;
  t.expect(readBase('greeting.txt') === 'hello from A\n' && readBase('notes/a.md') === '# Notes of a\n' && readBase('notes/b.md') === undefined && readBase('notes/c.md') === undefined,
    `after Merge on A, main has exactly A's change (greeting: ${JSON.stringify(readBase('greeting.txt'))})`);
  t.expect(git('diff', '--name-only', base, 'HEAD').split('\n').sort().join(',') === 'greeting.txt,notes/a.md', `main's commits change A's two files only: ${git('diff', '--name-only', base, 'HEAD')}`);

  // 3. Merge B from the palette (the compare view offers Merge for one run only): both added greeting.txt, a
  //    conflict, resolved in the merge editor
  await rowOf('Fan Agent A').locator('[data-testid="compare-status"][data-status="merged"]').waitFor({ timeout: 20_000 });
  t.expect(await (await detailsOf('Fan Agent B')).locator('[data-testid="compare-merge"][aria-disabled="true"]').count() === 1, 'A shows as merged, and the compare view offers no Merge for B');
  // after Merge on A's row the keyboard goes back to the compare view a moment later, which may close the quick
  // pick opened in between: `pick` runs the command again then
  await t.runCommand('ACP: Merge Worktree into Base Branch', { pick: page.locator('.quick-input-list .monaco-list-row', { hasText: /fan-b-say-hello/ }) });
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'has changes that are not committed' });
  if (await dialog.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await dialog.locator('.monaco-button', { hasText: 'Commit and Merge' }).click();
  await page.locator('.merge-editor-view, .merge-editor', { hasText: /./ }).first().waitFor({ timeout: 30_000 });
  t.expect(git('diff', '--name-only', '--diff-filter=U') === 'greeting.txt', 'the merge stopped on a conflict in greeting.txt');
  await t.screenshot('worktrees-merge-editor');
  // the incoming side is titled with the session's branch: its action reads "Accept switchboard/…"
  const acceptIncoming = page.locator('a', { hasText: /^Accept switchboard\// }).first();
  await acceptIncoming.click({ timeout: 15_000 });
  await page.keyboard.press('Control+S');
  await page.waitForTimeout(500);
  await t.runCommand('ACP: Complete Merge');
  const pickB = page.locator('.quick-input-list .monaco-list-row', { hasText: /fan-b-say-hello/ }).first();
  if (await pickB.waitFor({ timeout: 3_000 }).then(() => true, () => false)) await pickB.click();
  for (let i = 0; i < 40 && fs.existsSync(path.join(t.workspace, '.git', 'MERGE_HEAD')); i++) await page.waitForTimeout(250);
  t.expect(!fs.existsSync(path.join(t.workspace, '.git', 'MERGE_HEAD')) && readBase('greeting.txt') === 'hello from B\n' && git('log', '-1', '--format=%P').split(' ').length === 2,
    `Complete Merge committed the merge with B's greeting (${JSON.stringify(readBase('greeting.txt'))})`);
  const headAfterB = git('rev-parse', 'HEAD');

  // 4. Discard C: the base is untouched
  await page.locator('.tabs-container .tab', { hasText: 'Compare: Say hello' }).first().click();
  compare = await t.webviewByTitle(/^Compare: /, { timeoutMs: 20_000 });
  const cBranch = (await rowOf('Fan Agent C').locator('code.branch').innerText()).replace(/\s+/g, '');
  await (await detailsOf('Fan Agent C')).locator('[data-testid="compare-discard"]').click();
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Discard Worktree, Keep Branch' }).click({ timeout: 15_000 });
  await rowOf('Fan Agent C').locator('[data-testid="compare-status"][data-status="discarded"]').waitFor({ timeout: 20_000 });
  const worktrees = git('worktree', 'list', '--porcelain');
  t.expect(!worktrees.includes(cBranch) && git('branch', '--list', cBranch) !== '', `C's worktree is gone and its branch ${cBranch} stays`);
  t.expect(git('rev-parse', 'HEAD') === headAfterB && git('status', '--porcelain') === '', 'Discard left main untouched');

  // 5. a fan-out still working when the window reloads
  compare = await fanOut(['Fan Agent Slow'], 'slow answer please', undefined);
  await compare.locator('[data-testid="compare-status"][data-status="running"]').nth(1).waitFor({ timeout: 30_000 }).catch(() => undefined);
  await compare.locator('[data-testid="compare-row"]').nth(1).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  await t.runCommand('Developer: Reload Window');
  const tab = page.locator('.tabs-container .tab', { hasText: 'Compare: slow answer' }).first();
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  compare = await t.webviewByTitle(/^Compare: slow answer/, { timeoutMs: 60_000 });
  await compare.locator('[data-testid="compare-status"][data-status="interrupted"]').nth(1).waitFor({ timeout: 30_000 });
  t.expect(await compare.locator('[data-testid="compare-row"]').count() === 2, 'after the reload the compare view shows both runs, interrupted');
  t.expect(git('worktree', 'list').split('\n').filter((l) => l.includes('-slow-answer-please')).length === 2, 'their worktrees are still there');
  await t.screenshot('worktrees-after-reload');
  await compare.locator('[data-testid="compare-open"]').first().click();
  const chat = await t.webviewByTitle(/slow answer please/, { timeoutMs: 60_000 });
  await chat.locator('[data-testid="user-message"]', { hasText: 'slow answer please' }).first().waitFor({ timeout: 30_000 });
  t.expect(true, 'Open Chat reopened the interrupted run\'s session with its prompt');
}
