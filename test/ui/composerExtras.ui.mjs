// @ts-check
// Composer features beyond text, end to end against scripted agents whose stdin is recorded (every
// JSON-RPC message the agent received, one per line), so the assertions are on what the agent got:
// - images: pasted and dropped PNGs show as thumbnail chips and reach an agent with
//   promptCapabilities.image as `{ type: 'image', mimeType: 'image/png', data }`; an agent without it
//   disables the Image button with a tooltip saying why, refuses a paste and receives no image;
// - ACP: Add Selection to Chat: a selection in an editor beside the chat becomes a chip "hello.ts:1-2"
//   and reaches the agent as a fenced text block (no embeddedContext) or an embedded resource whose URI
//   carries the range (#L1-L2) (with embeddedContext);
// - legacy modes (session/new `modes`, no config option of category mode): the footer's mode picker
//   sends session/set_mode, and follows the agent's current_mode_update.
// Screenshots: composerExtras-*.png
import fs from 'node:fs';
import path from 'node:path';
import { makeTmp, sleep } from '../harness/harness.mjs';
import { idle, openSession, scriptedAgent, sendPrompt } from './scriptedSession.mjs';

export const name = 'composerExtras';
export const sharedWindow = true;
export const timeout = 240_000;

/** A 1×1 PNG (pasted) and another (dropped). */
const PNG_PASTED = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PNG_DROPPED = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * Runs `<command> <args…>` with its stdin copied, line for line as received, to the file in argv[1]
 * (node -e puts the extra arguments at process.argv[1…]).
 */
const TEE = [
  "const fs = require('fs'); const { spawn } = require('child_process');",
  'const [record, command, ...args] = process.argv.slice(1);',
  "const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });",
  "process.stdin.on('data', (d) => { fs.appendFileSync(record, d); child.stdin.write(d); });",
  "process.stdin.on('end', () => child.stdin.end());",
  "child.on('exit', (code) => process.exit(code ?? 1));",
  "process.on('SIGTERM', () => child.kill('SIGTERM'));",
].join('\n');

const recordDir = makeTmp('switchboard-composerExtras-');
/** @type {Record<'image' | 'textOnly' | 'modes', string>} */
const records = { image: path.join(recordDir, 'image.jsonl'), textOnly: path.join(recordDir, 'textOnly.jsonl'), modes: path.join(recordDir, 'modes.jsonl') };

/**
 * A scripted agent whose received messages are appended to `record`.
 * @param {string} id @param {string} agentName @param {string} scenario @param {string} record
 */
function recordedAgent(id, agentName, scenario, record) {
  const entry = scriptedAgent(id, agentName, scenario);
  return { ...entry, args: ['-e', TEE, record, entry.command, ...entry.args] };
}

export const settings = {
  'switchboard.agents': [
    // image and no embeddedContext; its default turn answers "received: <text> | blocks: <types>"
    recordedAgent('extras-images', 'Pictures agent', 'composer', records.image),
    // no promptCapabilities at all: no images, no embedded context
    recordedAgent('extras-textonly', 'Plaintext agent', 'minimalCapabilities', records.textOnly),
    // legacy modes; the engine's default capabilities (image, embeddedContext)
    recordedAgent('extras-modes', 'Legacy modes agent', 'modes', records.modes),
  ],
};

/**
 * The messages an agent received with this method, oldest first; waits up to 10 s for at least `atLeast`.
 * @param {string} record @param {string} method @param {number} [atLeast]
 * @returns {Promise<any[]>}
 */
async function received(record, method, atLeast = 1) {
  /** @type {any[]} */
  let found = [];
  await poll(() => {
    const text = fs.existsSync(record) ? fs.readFileSync(record, 'utf8') : '';
    found = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((m) => m.method === method);
    return found.length >= atLeast;
  });
  return found;
}

/** The value of a toolkit dropdown. @param {import('playwright-core').Locator} picker */
function pickerValue(picker) {
  return picker.evaluate((el) => /** @type {HTMLElement & { value: string }} */ (el).value);
}

/** Waits (up to 10 s) until `cond` holds; resolves either way. @param {() => boolean | Promise<boolean>} cond */
async function poll(cond) {
  const deadline = Date.now() + 10_000;
  while (!(await cond()) && Date.now() < deadline) await sleep(200);
}

/** The prompt blocks of the last session/prompt the agent received. @param {string} record */
async function lastPrompt(record) {
  const prompts = await received(record, 'session/prompt');
  return /** @type {any[]} */ (prompts.at(-1)?.params?.prompt ?? []);
}

/**
 * Puts image files into the composer as a paste into the text box, or as a drop on it.
 * @param {import('playwright-core').Locator} input @param {'paste' | 'drop'} how @param {string} base64 @param {string} fileName
 */
function putImage(input, how, base64, fileName) {
  return input.evaluate((el, [kind, b64, file]) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], file, { type: 'image/png' }));
    el.dispatchEvent(kind === 'paste'
      ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
      : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [how, base64, fileName]);
}

/**
 * Opens the workspace's hello.ts beside the chat (Quick Open, Ctrl+Enter), selects lines 1-2 (to the start of line 3)
 * and runs ACP: Add Selection to Chat.
 * @param {import('../harness/runUi.mjs').UiTest} t
 */
async function addHelloSelection(t) {
  const { page } = t;
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const quick = page.locator('.quick-input-widget input');
  await quick.waitFor({ state: 'visible', timeout: 10_000 });
  await quick.fill('hello.ts');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'hello.ts' }).first().waitFor({ timeout: 15_000 });
  await page.keyboard.press('Control+Enter');
  const line = page.locator('.monaco-editor .view-line', { hasText: 'export function hello' }).first();
  await line.waitFor({ timeout: 15_000 });
  // Quick Open gave the editor the keyboard; a click only if it did not (a click waited 15 s for a renderer
  // busy with the TypeScript server's first analysis on a loaded machine)
  const focused = page.locator('.monaco-editor.focused', { has: page.locator('.view-line', { hasText: 'export function hello' }) });
  if (!(await focused.waitFor({ timeout: 5000 }).then(() => true, () => false))) await line.click({ timeout: 30_000 });
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  // runCommand starts with Escape, which in the editor would drop the selection: let it close a palette instead
  await page.keyboard.press('F1');
  await quick.waitFor({ state: 'visible', timeout: 10_000 });
  await t.runCommand(t.commandTitle('switchboard.addSelectionToChat'));
}

const HELLO_LINES_1_2 = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n';

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  // the runner removes its temporary folders after each VS Code version: the next version starts afresh
  fs.mkdirSync(recordDir, { recursive: true });
  for (const f of Object.values(records)) fs.rmSync(f, { force: true });

  // ---- images, with an agent that takes them
  let chat = await openSession(t, 'Pictures agent');
  let input = chat.locator('[data-testid="composer-input"]');
  const imageButton = chat.locator('[data-testid="composer-image"]');
  t.expect(await imageButton.getAttribute('disabled') === null, 'the Image button is enabled (promptCapabilities.image)');
  t.expect((await imageButton.getAttribute('title'))?.includes('paste or drop'), 'its tooltip says images can be pasted or dropped');
  await putImage(input, 'paste', PNG_PASTED, 'pasted.png');
  await putImage(input, 'drop', PNG_DROPPED, 'dropped.png');
  const imageChips = chat.locator('[data-testid="attachment-chip"][data-kind="image"]');
  await imageChips.nth(1).waitFor({ timeout: 10_000 });
  t.expect(await imageChips.count() === 2, 'a pasted and a dropped PNG show as two image chips');
  t.expect(await imageChips.nth(0).locator('img.chip-thumb').getAttribute('src') === `data:image/png;base64,${PNG_PASTED}`
    && (await imageChips.nth(1).textContent())?.includes('dropped.png'), 'the chips show thumbnails of the images and their names');
  await t.screenshot('composerExtras-images');
  await sendPrompt(t, chat, 'what is in these?');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'blocks: text; image image/png; image image/png' }).waitFor({ timeout: 20_000 });
  let blocks = await lastPrompt(records.image);
  t.expect(JSON.stringify(blocks) === JSON.stringify([
    { type: 'text', text: 'what is in these?' },
    { type: 'image', data: PNG_PASTED, mimeType: 'image/png' },
    { type: 'image', data: PNG_DROPPED, mimeType: 'image/png' },
  ]), `the agent received the text and both images with their base64 data: ${JSON.stringify(blocks).slice(0, 300)}`);
  t.expect(await chat.locator('[data-testid="attachment-chip"]').count() === 0, 'sending cleared the chips');
  await idle(chat);

  // ---- Add Selection to Chat, without embeddedContext: a fenced text block naming the path and lines
  await addHelloSelection(t);
  chat = await t.webview();
  input = chat.locator('[data-testid="composer-input"]');
  const selectionChip = chat.locator('[data-testid="attachment-chip"][data-kind="selection"]');
  await selectionChip.waitFor({ timeout: 10_000 });
  t.expect((await selectionChip.locator('.chip-label').textContent()) === 'hello.ts:1-2', 'the selection shows as a chip "hello.ts:1-2"');
  t.expect((await selectionChip.getAttribute('title'))?.endsWith('/src/hello.ts'), 'the chip\'s tooltip is the file\'s URI');
  await t.screenshot('composerExtras-selection');
  await sendPrompt(t, chat, 'explain this');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'blocks: text; text' }).waitFor({ timeout: 20_000 });
  blocks = await lastPrompt(records.image);
  t.expect(JSON.stringify(blocks) === JSON.stringify([
    { type: 'text', text: 'explain this' },
    { type: 'text', text: `src/hello.ts (lines 1-2):\n\`\`\`\n${HELLO_LINES_1_2}\n\`\`\`` },
  ]), `the agent received the selection as a text block with path, lines and the fenced code: ${JSON.stringify(blocks)}`);
  await idle(chat);

  // ---- images, with an agent that does not take them (in the only chat left open: t.webview() finds it)
  await t.runCommand('View: Close All Editors');
  chat = await openSession(t, 'Plaintext agent');
  input = chat.locator('[data-testid="composer-input"]');
  const noImage = chat.locator('[data-testid="composer-image"]');
  t.expect(await noImage.getAttribute('disabled') !== null, 'the Image button is disabled without promptCapabilities.image');
  const why = await noImage.getAttribute('title') ?? '';
  t.expect(why.includes('does not accept images (its promptCapabilities.image is off)'), `its tooltip says why: "${why}"`);
  await putImage(input, 'paste', PNG_PASTED, 'pasted.png');
  await chat.locator('[data-testid="composer-status"]', { hasText: 'does not accept images' }).waitFor({ timeout: 10_000 });
  t.expect(await chat.locator('[data-testid="attachment-chip"]').count() === 0, 'a pasted image is refused (no chip) and the status line says why');
  await t.screenshot('composerExtras-no-images');
  await sendPrompt(t, chat, 'just text');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'minimal' }).waitFor({ timeout: 20_000 });
  blocks = await lastPrompt(records.textOnly);
  t.expect(JSON.stringify(blocks) === JSON.stringify([{ type: 'text', text: 'just text' }]), `the agent received only the text: ${JSON.stringify(blocks)}`);
  await idle(chat);

  // ---- legacy modes
  chat = await openSession(t, 'Legacy modes agent');
  input = chat.locator('[data-testid="composer-input"]');
  const picker = chat.locator('[data-testid="mode-select"]');
  await picker.waitFor({ timeout: 10_000 });
  t.expect(await pickerValue(picker) === 'ask', 'the footer has a mode picker showing the current mode "ask"');
  t.expect(JSON.stringify(await picker.locator('vscode-option').allTextContents()) === JSON.stringify(['Ask', 'Architect', 'Code']), 'it lists the agent\'s three modes');
  t.expect(await chat.locator('[data-testid="config-option"]').count() === 0, 'no config options besides it');
  await picker.click();
  await picker.locator('vscode-option[value="architect"]').click();
  const setMode = await received(records.modes, 'session/set_mode');
  t.expect(setMode.length === 1 && setMode[0].params.modeId === 'architect', `the agent received session/set_mode with modeId "architect": ${JSON.stringify(setMode.map((m) => m.params))}`);
  await sendPrompt(t, chat, 'which mode?');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Current mode: architect' }).waitFor({ timeout: 20_000 });
  t.expect(await pickerValue(picker) === 'architect', 'the agent is in "architect" and the picker shows it');
  await idle(chat);
  await sendPrompt(t, chat, 'switch please');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Switched to code.' }).waitFor({ timeout: 20_000 });
  await poll(async () => await pickerValue(picker) === 'code');
  t.expect(await pickerValue(picker) === 'code', 'the agent\'s current_mode_update moved the picker to "code"');
  await t.screenshot('composerExtras-modes');
  await idle(chat);

  // ---- Add Selection to Chat, with embeddedContext: an embedded resource whose URI carries the range
  await addHelloSelection(t);
  chat = await t.webview();
  await chat.locator('[data-testid="attachment-chip"][data-kind="selection"]', { hasText: 'hello.ts:1-2' }).waitFor({ timeout: 10_000 });
  t.expect(true, 'the selection is attached to the modes chat (the one used last)');
  await sendPrompt(t, chat, 'and now?');
  await chat.locator('[data-testid="agent-message"]', { hasText: 'Current mode: code' }).waitFor({ timeout: 20_000 });
  blocks = await lastPrompt(records.modes);
  const resource = blocks[1]?.resource;
  t.expect(blocks.length === 2 && blocks[0].text === 'and now?' && blocks[1].type === 'resource'
    && /^file:\/\/.*\/src\/hello\.ts#L1-L2$/.test(resource?.uri) && resource?.text === HELLO_LINES_1_2 && resource?.mimeType === 'text/plain',
  `the agent received the selection as an embedded resource <file>#L1-L2 with its text: ${JSON.stringify(blocks)}`);
  t.expect((await received(records.modes, 'session/set_mode')).length === 1, 'the agent\'s current_mode_update was not sent back as a session/set_mode');
}
