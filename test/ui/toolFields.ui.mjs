// @ts-check
// Fields of the current schema in the chat (issue 15 items 5 and 11), with the scripted agent of toolFields.json:
// - a tool call whose output is only in rawOutput (codex-acp style): the card shows the command line, the exit code,
//   stdout and stderr as terminal text with ANSI colours, the unified diff of its `changes` map as an inline diff,
//   and the rest as collapsible JSON (collapsed, opened from the keyboard); the agent's markup in all of it
//   (`<img src=x onerror=alert(1)>`, `[x](command:foo)`) is text; a plain-string rawOutput is terminal text too;
// - the agent is not named in the settings: the header and the tab are named by its agentInfo title, and the
//   header's tooltip shows its title, version and programmatic name;
// - the usage of the prompt response shows after the turn ("Last turn: …"), every count in its tooltip.
// Screenshots: test-results/screenshots/<version>/tool-fields.png, tool-fields-card.png (the card alone) and
// tool-fields-json.png (its JSON open)
import path from 'node:path';
import { idle, scriptedAgent, sendPrompt, untitledTab } from './scriptedSession.mjs';

export const name = 'toolFields';
export const sharedWindow = true;
export const timeout = 180_000;
// no `name`: the agent is named by its own title
const { name: _unused, ...unnamed } = scriptedAgent('fields-agent', 'fields-agent', 'toolFields');
export const settings = { 'switchboard.agents': [unnamed] };

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  /** @type {string[]} */
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(`${d.type()}: ${d.message()}`); void d.dismiss().catch(() => {}); });

  await t.runCommand(t.commandTitle('switchboard.newSession'));
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'fields-agent' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.type('fields-agent');
  await page.keyboard.press('Enter');
  const chat = await t.webviewByTitle(untitledTab('Fields Agent'), { timeoutMs: 30_000 });
  t.expect(true, "the chat's title names the agent by its agentInfo title");
  await chat.locator('[data-testid="composer-input"]').waitFor({ timeout: 30_000 });
  await idle(chat);

  // the header: the title, and title, version and programmatic name in the tooltip
  const agent = chat.locator('[data-testid="session-agent"]');
  t.expect(await agent.innerText() === 'Fields Agent', `the header names the agent by its title: ${await agent.innerText()}`);
  const tooltip = (await agent.getAttribute('title')) ?? '';
  t.expect(tooltip.startsWith('Fields Agent 2.5.1 (tool-fields-agent)\nFolders of this session:'), `the tooltip shows title and version, then the folders: ${JSON.stringify(tooltip)}`);

  await sendPrompt(t, chat, 'fields');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Done.' }).waitFor({ timeout: 30_000 });
  await idle(chat);
  const card = chat.locator('[data-tool-call-id="tc-raw"]');
  await card.locator('[data-testid="raw-output-command"]').waitFor({ timeout: 15_000 });

  // the command, its exit code and what it printed
  const line = await card.locator('[data-testid="raw-output-command-line"]').innerText();
  t.expect(line === "$ bash -lc 'npm test -- --grep '\\''<img src=x onerror=alert(1)>'\\'''", `the command line, markup as text: ${line}`);
  t.expect(await card.locator('[data-testid="raw-output-exit"]').innerText() === 'exit code 2', 'the exit code');
  t.expect(await card.locator('[data-testid="raw-output-command"]').evaluate((n) => n.classList.contains('failed')), 'a non-zero exit code looks failed');
  const stdout = card.locator('[data-testid="raw-output-text"][data-label="stdout"]');
  const stdoutText = await stdout.innerText();
  t.expect(stdoutText.includes('✓ 12 passing') && stdoutText.includes('✗ 1 failing'), `stdout is shown: ${JSON.stringify(stdoutText)}`);
  t.expect(stdoutText.includes('<img src=x onerror=alert(1)> [x](command:foo)'), 'the markup in stdout is text');
  t.expect(!stdoutText.includes('\x1b') && !stdoutText.includes('[32m'), 'no escape sequence is shown');
  t.expect(await stdout.locator('span.ansi-fg-green', { hasText: '✓' }).count() === 1, 'green stays green');
  t.expect(await stdout.locator('span.ansi-fg-red.ansi-bold', { hasText: '✗ 1 failing' }).count() === 1, 'bold red stays bold red');
  const green = await stdout.locator('span.ansi-fg-green').evaluate((n) => getComputedStyle(n).color);
  const plain = await stdout.evaluate((n) => getComputedStyle(n).color);
  t.expect(green !== plain, `the colour comes from the terminal theme: ${green} vs ${plain}`);
  const stderr = card.locator('[data-testid="raw-output-text"][data-label="stderr"]');
  t.expect((await stderr.innerText()).includes('warning: deprecated flag'), 'stderr is shown, labelled');
  t.expect(await card.locator('.raw-output-label').allInnerTexts().then((l) => l.join(',')) === 'stdout,stderr', 'stdout and stderr are labelled');

  // the diff of the changes map
  const diff = card.locator('[data-testid="diff"][data-path="/project/src/app.ts"]');
  const diffText = await diff.innerText();
  t.expect(diffText.includes("const b = '<img src=x onerror=alert(1)>';") && diffText.includes('// [x](command:foo)'), 'the diff shows its lines, markup as text');
  t.expect(await diff.locator('tr.diff-line.added').count() === 2 && await diff.locator('tr.diff-line.removed').count() === 1, 'two lines added, one removed');
  t.expect(await diff.locator('tr.diff-hunk').count() === 2, 'both hunks');
  t.expect(await diff.locator('[data-testid="open-diff"]').count() === 0, 'no Open Diff: only the hunks are known');

  // the card as it first shows (the JSON collapsed)
  await card.scrollIntoViewIfNeeded();
  const shot = await t.screenshot('tool-fields');
  const cardShot = path.join(path.dirname(shot), 'tool-fields-card.png');
  await card.screenshot({ path: cardShot });
  t.log(`screenshot ${path.relative(process.cwd(), cardShot)}`);

  // the rest: collapsible JSON, collapsed; Enter opens it
  const rest = card.locator('[data-testid="raw-output"]');
  const toggle = rest.locator('[data-testid="raw-output-toggle"]');
  t.expect(await toggle.getAttribute('aria-expanded') === 'false' && !(await rest.locator('pre').isVisible()), 'the rest starts collapsed');
  t.expect((await toggle.innerText()).trim() === 'Raw output', 'labelled Raw output');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await rest.locator('pre').waitFor({ state: 'visible', timeout: 5000 });
  const json = await rest.locator('pre').innerText();
  t.expect(await toggle.getAttribute('aria-expanded') === 'true', 'Enter expands it');
  t.expect(json.includes('"note": "<img src=x onerror=alert(1)> [x](command:foo)"') && json.includes('"call_id": "call_7f3a"'), 'the rest is JSON, markup as text');
  t.expect(!json.includes('"stdout"') && !json.includes('"changes"'), 'what is shown above is not repeated');

  // nothing the agent sent became markup anywhere in the card
  t.expect(await card.locator('img, a, script, iframe').count() === 0, 'no element from the agent\'s markup');
  t.expect(await card.locator('[data-testid="tool-name"]').innerText() === 'exec_command', "the tool's name");

  // a plain string
  const str = chat.locator('[data-tool-call-id="tc-string"] [data-testid="raw-output-text"]');
  t.expect((await str.innerText()).trim() === 'bold plain output', 'a plain-string rawOutput is terminal text');
  t.expect(await str.locator('span.ansi-bold').count() === 1, 'with its attributes');

  // the turn's usage
  const usage = chat.locator('[data-testid="turn-usage"]');
  t.expect(await usage.innerText() === 'Last turn: 12.3k tokens (in 10k, out 2.3k, thought 500, cached 8k)', `the last turn's tokens: ${await usage.innerText()}`);
  const usageTip = (await usage.getAttribute('title')) ?? '';
  t.expect(usageTip.includes('Total: 12,345') && usageTip.includes('Cache write: 120'), 'every count in the tooltip');

  t.expect(dialogs.length === 0, `no dialog opened ${JSON.stringify(dialogs)}`);
  t.expect(await chat.locator('body').evaluate(() => !('__xss' in window)), 'no script ran');

  await t.screenshot('tool-fields-json');

  // a turn without usage clears the line
  await sendPrompt(t, chat, 'plain');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'No usage this time.' }).waitFor({ timeout: 30_000 });
  await idle(chat);
  await usage.waitFor({ state: 'detached', timeout: 10_000 });
  t.expect(true, 'a turn without usage clears the line');
}
