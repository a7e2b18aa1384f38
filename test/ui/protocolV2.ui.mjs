// @ts-check
// ACP v2 behind `switchboard.experimental.protocolV2` (docs/acp-v2.md), against the scripted v2 agent on the SDK's
// `experimental/v2` entry point (test/fixtures/agents/v2Agent.ts), with a v1 scripted agent beside it:
// - a turn of every v2 update: the user's message once (the agent's echo is not shown again), a thought, chunks then
//   the whole message, a plan, a read with a content chunk, a file the agent wrote itself as a diff, a terminal the
//   agent runs behind a permission (answered by keyboard), its base64 output, its exit, the title;
// - work that outlives the turn: the background bar lists a terminal and a tool call; Stop on the tool call's card
//   cancels it (`tool_call/cancel`), Stop in the bar (by keyboard) ends the terminal (`terminal/cancel`);
// - Reload Window: the transcript comes back as it was, with no Stop left on it;
// - the v1 agent, offered v2 too, stays on v1 (the traffic check holds each to its version's schema).
// Screenshots: test-results/screenshots/<version>/protocol-v2-turn.png, protocol-v2-background.png.
import path from 'node:path';
import { EXTENSION_ROOT } from '../harness/harness.mjs';
import { idle, openSession, reloadWindowAndReopen, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'protocolV2';
export const sharedWindow = true;
export const settings = {
  'switchboard.experimental.protocolV2': true,
  'switchboard.agents': [
    { id: 'scripted-v2', name: 'Scripted v2', command: process.execPath, args: [path.join(EXTENSION_ROOT, 'out', 'test', 'fixtures', 'agents', 'v2Agent.js')] },
    scriptedAgent('scripted-v1-offered', 'Scripted v1 offered', 'plan'),
  ],
};
export const timeout = 180_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  let chat = await openSession(t, 'Scripted v2');
  const card = (/** @type {string} */ id) => chat.locator(`[data-testid="tool-call"][data-tool-call-id="${id}"]`);

  // 1. a whole v2 turn
  await sendPrompt(t, chat, 'hello v2');
  const permission = card('test').locator('[data-testid="permission"]');
  await permission.waitFor({ timeout: 30_000 });
  const terminal = card('test').locator('[data-testid="terminal"]');
  t.expect((await terminal.locator('.terminal-command').textContent())?.trim() === '$ npm test', 'the agent\'s terminal shows in its card before it runs');
  t.expect(await terminal.locator('[data-testid="terminal-show"]').count() === 0, 'an agent-run terminal offers no Show in terminal (nothing runs in VS Code)');
  await card('test').locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 10_000 });
  t.expect((await card('test').locator('[data-testid="tool-title"]').textContent())?.trim() === 'Run npm test', 'the permission\'s subject is the tool call, whose title stays');
  await page.keyboard.press(process.platform === 'darwin' ? 'Meta+Shift+A' : 'Control+Shift+A');
  await page.keyboard.press('Enter');
  await idle(chat);
  const said = await chat.locator('#transcript [data-testid="agent-message"]').allInnerTexts();
  t.expect(said.length === 1 && said[0].trim() === 'Hello from ACP v2. Here is the tour.', `chunks, then what the whole message adds, once: ${JSON.stringify(said)}`);
  t.expect(await chat.locator('#transcript [data-testid="user-message"]', { hasText: 'hello v2' }).count() === 1, 'the user\'s message shows once: the agent\'s echo is not shown again');
  t.expect(await chat.locator('[data-testid="thought"]').count() === 1, 'the thought');
  const thought = (await chat.locator('[data-testid="thought"]').textContent()) ?? '';
  t.expect(/MCP servers: vscode \((http|stdio)\)/.test(thought), `the editor's tools reach the v2 agent as its MCP server: ${thought.trim().slice(0, 120)}`);
  t.expect((await card('read').textContent())?.includes('v2 read: the first line of the readme') === true, 'a content chunk of a tool call');
  t.expect(await card('edit').locator('[data-testid="diff"]').count() === 1 && (await card('edit').locator('[data-testid="diff"]').textContent())?.includes('v2 notes line') === true, 'the file the agent wrote, as a diff from its git patch');
  t.expect((await terminal.locator('[data-role="terminal-output"]').textContent())?.includes('v2 output: 3 passing ✓ done') === true, 'the terminal\'s base64 output, cut inside a character, reads whole');
  t.expect((await terminal.locator('[data-testid="terminal-status"]').textContent())?.trim() === 'exit code 0', 'and its exit');
  t.expect(await card('test').getAttribute('data-status') === 'completed', 'the permission answered, the call completed');
  await chat.locator('[data-testid="session-title"]', { hasText: 'ACP v2 tour' }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the title from session_info_update');
  await t.screenshot('protocol-v2-turn');

  // 2. background work, stopped one piece at a time
  await sendPrompt(t, chat, 'start and stop');
  const bar = chat.locator('[data-testid="background-work"]');
  await bar.locator('[data-testid="background-item"]').nth(1).waitFor({ timeout: 30_000 });
  await idle(chat);
  const items = await bar.locator('[data-testid="background-title"]').allInnerTexts();
  t.expect(items.length === 2 && items[0] === 'npm run watch' && items[1] === 'Index the workspace', `the background bar lists the agent's work: ${JSON.stringify(items)}`);
  t.expect(await card('watch').locator('[data-testid="terminal-stop"]').count() === 1, 'the running terminal offers Stop in its card');
  await t.screenshot('protocol-v2-background');
  await card('index').locator('[data-testid="tool-stop"]').click();
  await card('index').locator('[data-testid="tool-status"][data-status="cancelled"]').waitFor({ timeout: 10_000 });
  t.expect(await card('index').locator('[data-testid="tool-stop"]').count() === 0, 'Stop on the card: the tool call is cancelled, and offers Stop no more');
  await bar.locator('[data-testid="background-item"]').nth(1).waitFor({ state: 'detached', timeout: 10_000 });
  await bar.locator('[data-testid="background-stop"]').focus();
  await page.keyboard.press('Enter');
  await card('watch').locator('[data-testid="terminal-status"]', { hasText: 'ended by SIGTERM' }).waitFor({ timeout: 10_000 });
  await bar.waitFor({ state: 'hidden', timeout: 10_000 });
  t.expect(true, 'Stop in the bar, by keyboard: the terminal ends, and the bar is gone with the work');

  // 3. Reload Window: the same transcript, no Stop left
  chat = await reloadWindowAndReopen(t, 'ACP v2 tour', /ACP v2 tour/);
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Started a watcher' }).waitFor({ timeout: 60_000 });
  const again = await chat.locator('#transcript [data-testid="agent-message"]').allInnerTexts();
  t.expect(again.length === 2 && again[0].trim() === 'Hello from ACP v2. Here is the tour.', `after Reload Window the messages are as they were: ${JSON.stringify(again)}`);
  t.expect(await chat.locator('#transcript [data-testid="user-message"]').count() === 2, 'the two prompts, once each');
  t.expect((await card('test').locator('[data-role="terminal-output"]').textContent())?.includes('3 passing ✓ done') === true, 'the terminal\'s output is kept');
  t.expect(await chat.locator('[data-testid="tool-stop"], [data-testid="terminal-stop"]').count() === 0 && await chat.locator('[data-testid="background-work"]').isHidden(), 'no Stop and no background bar in a reopened session');

  // 4. a v1 agent offered v2 goes on with v1
  const v1 = await openSession(t, 'Scripted v1 offered');
  await sendPrompt(t, v1, 'go');
  await v1.locator('[data-testid="plan"]').first().waitFor({ timeout: 30_000 });
  await idle(v1);
  t.expect(await v1.locator('[data-testid="background-work"]').isHidden(), 'the v1 agent\'s turn runs as before (its plan), on v1: the traffic check holds it to v1\'s schema');
}
