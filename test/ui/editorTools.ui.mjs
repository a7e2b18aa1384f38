// @ts-check
// The editor's tools for agents (docs/editor-tools.md), through the workbench, with agents on the other end of a pipe:
// - the user opens editor-tools/main.ts with Quick Open and types a type error at its end, unsaved; the editor shows it;
// - the Demo agent (no MCP over HTTP: it gets the editor's server through the stdio bridge) runs
//   `/tools editor-tools/main.ts`: its cards list the editor's tools and carry the unsaved error from get_diagnostics,
//   "Type 'string' is not assignable to type 'number'"; the header's tooltip lists "vscode: the editor's tools (stdio)";
// - ACP: Show Editor Tools Log opens the session's log, with the get_diagnostics call and no token;
// - a scripted agent with MCP over HTTP asks go_to_definition, find_references and search_text: the definition in
//   lib.ts, the 3 references, and the unsaved line found in the editor's buffer; then run_task "say hello": a card
//   of the client's own asks first ("Run the task "say hello"", with the command line); Ctrl+Shift+A, Enter allows
//   it once, and the agent gets the exit code 0;
// - the file is reverted at the end (a shared window).
// Screenshots: test-results/screenshots/<version>/editor-tools-demo.png (the Demo agent's cards),
// editor-tools-log.png (the log), editor-tools-http.png (the scripted agent's answers).
import { idle, openDemoSession, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'editor-tools';
export const sharedWindow = true;
const agentName = 'Scripted editor tools';
// the product's default for a command no answer covers (the harness's is "allow")
export const settings = { 'switchboard.agents': [scriptedAgent('scripted-editor-tools', agentName, 'editorTools')], 'switchboard.permissions.uncoveredActions': 'ask',
  // the type errors of an unsaved buffer come from TypeScript's full server (runUi.mjs starts only its syntax server)
  'typescript.tsserver.useSyntaxServer': 'auto' };
export const files = {
  'editor-tools/lib.ts': 'export function greet(name: string): string {\n  return `Hello, ${name}`;\n}\n',
  'editor-tools/main.ts': "import { greet } from './lib';\n\nconst text = greet('you');\nconst count: number = text.length;\nexport { count };\n",
  '.vscode/tasks.json': JSON.stringify({ version: '2.0.0', tasks: [{ label: 'say hello', type: 'shell', command: 'echo hello-from-task' }] }),
};
export const timeout = 240_000;

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  // 1. an unsaved type error, typed as a person does
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').waitFor({ timeout: 10_000 });
  await page.keyboard.type('editor-tools/main.ts');
  // the row that Enter opens: Quick Open's file search fills the list as it goes, and another file may lead it at first
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'main.ts' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: 'main.ts' }).waitFor({ timeout: 15_000 });
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type("const wrong: number = 'not a number", { delay: 5 }); // the editor closes the quote itself
  await page.locator('.tabs-container .tab.active.dirty', { hasText: 'main.ts' }).waitFor({ timeout: 10_000 });
  await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 90_000 });
  t.expect(true, 'the editor shows the unsaved type error');

  // 2. the Demo agent over the stdio bridge
  const { chat } = await openDemoSession(t);
  await sendPrompt(t, chat, '/tools editor-tools/main.ts');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'A real agent uses them the same way' }).waitFor({ timeout: 60_000 });
  await idle(chat);
  const cardText = (/** @type {string} */ id) => chat.locator(`[data-tool-call-id="${id}"]`).evaluate((el) => el.textContent ?? '');
  const listed = await cardText('tools-list-1');
  t.expect(['get_diagnostics', 'go_to_definition', 'find_references', 'search_text', 'get_open_editors'].every((n) => listed.includes(n)), `the card lists the editor's tools: ${listed.slice(0, 300)}`);
  const problems = await cardText('tools-problems-1');
  t.expect(/Type 'string' is not assignable to type 'number'/.test(problems) && /unsaved changes in the editor: editor-tools\/main\.ts/.test(problems), `get_diagnostics carries the unsaved error: ${problems.slice(0, 400)}`);
  const editors = await cardText('tools-editors-1');
  t.expect(/editor-tools\/main\.ts \(unsaved changes\)/.test(editors), `get_open_editors lists the dirty tab: ${editors.slice(0, 300)}`);
  const demoTip = (await chat.locator('[data-testid="session-agent"]').getAttribute('title')) ?? '';
  t.expect(/MCP servers of this session:\nvscode: the editor's tools \(stdio\)/.test(demoTip), `the header's tooltip lists the editor's tools: ${demoTip}`);
  await t.screenshot('editor-tools-demo');

  // 3. the session's log, from the palette
  await t.runCommand('ACP: Show Editor Tools Log');
  await page.locator('.tabs-container .tab.active', { hasText: /\.log$/ }).waitFor({ timeout: 15_000 });
  const log = (await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  t.expect(/get_diagnostics \{"path":"editor-tools\/main\.ts"\} → \d+ bytes in \d+ ms/.test(log), `the log has the call: ${log.slice(0, 400)}`);
  t.expect(!/SWITCHBOARD_MCP_TOKEN|Bearer [\w-]{20,}/.test(log), 'no token in the log');
  await t.screenshot('editor-tools-log');

  // 4. an agent with MCP over HTTP: definition, references, search in the unsaved buffer
  const http = await openSession(t, agentName);
  const httpTip = (await http.locator('[data-testid="session-agent"]').getAttribute('title')) ?? '';
  t.expect(/vscode: the editor's tools \(HTTP\)/.test(httpTip), `over HTTP for an agent that takes it: ${httpTip}`);
  const answer = async (/** @type {string} */ prompt, /** @type {RegExp} */ expected) => {
    await sendPrompt(t, http, prompt);
    const reply = http.locator('[data-testid="agent-message"]', { hasText: '[call] ' }).last();
    await http.locator('[data-testid="agent-message"]', { hasText: expected }).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
    const text = await reply.innerText();
    t.expect(expected.test(text), `${prompt}: ${text.slice(0, 300)}`);
  };
  await answer('/go_to_definition greet', /editor-tools\/lib\.ts:1:17/);
  await answer('/find_references greet', /3 references/);
  await answer('/search_text not a number', /editor-tools\/main\.ts:\d+:24/);
  // run_task asks first, in the chat, answered by keyboard
  const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
  await sendPrompt(t, http, '/run_task say hello');
  const card = http.locator('[data-tool-call-id^="switchboard-check-"]', { hasText: 'Run the task "say hello"' }).last();
  await card.locator('[data-testid="permission"][data-armed="true"]').waitFor({ timeout: 30_000 });
  t.expect(((await card.textContent()) ?? '').includes('echo hello-from-task'), 'the card shows the task\'s command line');
  await t.screenshot('editor-tools-task-card');
  await page.keyboard.press(`${mod}+Shift+A`);
  await page.keyboard.press('Enter');
  await http.locator('[data-testid="agent-message"]', { hasText: 'exited with code 0' }).first().waitFor({ timeout: 30_000 });
  t.expect(true, 'Ctrl+Shift+A, Enter allowed the task once; it ran and the agent got its exit code');
  await t.screenshot('editor-tools-http');

  // 5. leave the window as it was
  const main = page.locator('.tabs-container .tab', { hasText: 'main.ts' }).first();
  await main.click();
  await t.runCommand('File: Revert File');
  await page.locator('.tabs-container .tab.dirty', { hasText: 'main.ts' }).waitFor({ state: 'detached', timeout: 10_000 });
}
