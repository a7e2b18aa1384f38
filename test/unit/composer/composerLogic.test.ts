/** Pure composer logic: fuzzy matching, history recall, send keys, the prompt queue, blocks and capabilities. */
import * as assert from 'node:assert/strict';
import { appendHistory } from '../../../src/host/prompts/promptHistory';
import { restrictToCapabilities, selectionBlock, uriName } from '../../../src/host/prompts/promptBlocks';
import { PromptQueue } from '../../../src/host/prompts/promptQueue';
import { fuzzyFilter, fuzzyScore } from '../../../src/shared/fuzzyMatch';
import { HistoryNavigator } from '../../../webview/composer/historyNav';
import { caretOnFirstLine, caretOnLastLine, isSendKey } from '../../../webview/lib/keymap';
import { filterCommands, mentionQuery, runsOnEnter, slashQuery } from '../../../webview/composer/queries';

const key = (k: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean; isComposing: boolean }> = {}) =>
  ({ key: k, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, isComposing: false, ...mods });

describe('composer logic', () => {
  it('fuzzy: characters in order, file-name and word-start matches first', () => {
    assert.equal(fuzzyScore('xyz', 'src/main.ts'), undefined);
    assert.ok(fuzzyScore('mts', 'src/main.ts') !== undefined);
    const files = ['docs/commands.md', 'src/composer/main.ts', 'src/main.ts', 'test/maintenance.ts'];
    assert.deepEqual(fuzzyFilter('main', files, (f) => f).slice(0, 2), ['src/main.ts', 'src/composer/main.ts']);
    assert.deepEqual(fuzzyFilter('', files, (f) => f), files, 'an empty query keeps the order');
    assert.equal(fuzzyFilter('m', files, (f) => f, 2).length, 2);
  });

  it('history: ↑ walks back, ↓ forward, and past the newest the draft comes back', () => {
    const nav = new HistoryNavigator(['one', 'two']);
    assert.equal(nav.next(), undefined, '↓ does nothing when not recalling');
    assert.equal(nav.previous('draft'), 'two');
    assert.equal(nav.previous('two'), 'one');
    assert.equal(nav.previous('one'), undefined, 'stops at the oldest');
    assert.equal(nav.next(), 'two');
    assert.equal(nav.next(), 'draft');
    assert.equal(nav.recalling, false);
    assert.equal(new HistoryNavigator([]).previous('x'), undefined);
  });

  it('history: repeats move to the end, blanks are ignored, the size is capped', () => {
    assert.deepEqual(appendHistory(['a', 'b'], 'a'), ['b', 'a']);
    assert.deepEqual(appendHistory(['a'], '  '), ['a']);
    assert.deepEqual(appendHistory(['a', 'b', 'c'], 'd', 3), ['b', 'c', 'd']);
  });

  it('send keys follow the setting; IME composition never sends', () => {
    assert.equal(isSendKey(key('Enter'), 'enter'), true);
    assert.equal(isSendKey(key('Enter', { shiftKey: true }), 'enter'), false);
    assert.equal(isSendKey(key('Enter', { isComposing: true }), 'enter'), false);
    assert.equal(isSendKey(key('Enter'), 'ctrlEnter'), false);
    assert.equal(isSendKey(key('Enter', { ctrlKey: true }), 'ctrlEnter'), true);
    assert.equal(isSendKey(key('Enter', { metaKey: true }), 'ctrlEnter'), true);
    assert.equal(isSendKey(key('a'), 'enter'), false);
  });

  it('caret lines decide when ↑/↓ recall history', () => {
    assert.equal(caretOnFirstLine('ab\ncd', 1, 1), true);
    assert.equal(caretOnFirstLine('ab\ncd', 4, 4), false);
    assert.equal(caretOnLastLine('ab\ncd', 4, 4), true);
    assert.equal(caretOnLastLine('ab\ncd', 1, 1), false);
    assert.equal(caretOnFirstLine('ab', 0, 2), false, 'not with a selection');
  });

  it('slash and @ queries are found before the caret', () => {
    assert.equal(slashQuery('/ec', 3), 'ec');
    assert.equal(slashQuery('/echo hi', 8), undefined);
    assert.equal(slashQuery('a /x', 4), undefined);
    assert.deepEqual(mentionQuery('look @src/ma', 12), { query: 'src/ma', start: 5 });
    assert.deepEqual(mentionQuery('@', 1), { query: '', start: 0 });
    assert.equal(mentionQuery('a@b', 3), undefined, 'an e-mail-like word is no mention');
    const cmds = [{ name: 'plan', description: '' }, { name: 'explain', description: '' }, { name: 'echo', description: '' }];
    assert.deepEqual(filterCommands(cmds, 'e').map((c) => c.name), ['explain', 'echo', 'plan'].filter((n) => n !== 'plan'));
    assert.deepEqual(filterCommands(cmds, 'pl').map((c) => c.name), ['plan', 'explain']);
  });

  it('Enter in the slash menu runs a command without input at once, and completes one that takes input', () => {
    assert.equal(runsOnEnter({ name: 'tour', description: '' }, ''), true);
    assert.equal(runsOnEnter({ name: 'tour', description: '' }, 'more text'), false, 'text after it: completed, not sent');
    assert.equal(runsOnEnter({ name: 'echo', description: '', hint: 'text to repeat' }, ''), false);
    assert.equal(runsOnEnter({ name: 'echo', description: '', hint: '' }, ''), false, 'an empty hint still means input');
  });

  it('the queue: add, edit, remove, take in order; serializable; events', () => {
    const q = new PromptQueue();
    let changes = 0;
    q.onDidChange(() => changes++);
    const a = q.add('a');
    const b = q.add('b');
    q.add('c');
    assert.equal(q.update(a, 'A'), true);
    assert.equal(q.remove(b), true);
    assert.equal(q.remove('nope'), false);
    const json = JSON.parse(JSON.stringify(q)) as { text: string }[];
    assert.deepEqual(json.map((i) => i.text), ['A', 'c']);
    assert.equal(q.take()?.text, 'A');
    assert.equal(q.update(q.items[0].id, '  '), true, 'an emptied prompt is removed');
    assert.equal(q.size, 0);
    assert.equal(q.take(), undefined);
    q.restore([{ id: 'x', text: 'restored', attachments: [] }, { id: 'y', text: ' ', attachments: [] }]);
    assert.deepEqual(q.items.map((i) => i.text), ['restored']);
    assert.ok(changes >= 7);
  });

  it('prompt blocks are restricted to promptCapabilities', () => {
    const none = { image: false, audio: false, embeddedContext: false };
    const { blocks, dropped } = restrictToCapabilities([
      { type: 'text', text: 'hi' },
      { type: 'image', data: 'AA==', mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///w/a%20b.ts', text: 'x' } },
      { type: 'resource_link', uri: 'file:///w/c.ts', name: 'c.ts' },
    ], none);
    assert.deepEqual(blocks.map((b) => b.type), ['text', 'resource_link', 'resource_link']);
    assert.deepEqual(blocks[1], { type: 'resource_link', uri: 'file:///w/a%20b.ts', name: 'a b.ts' });
    assert.deepEqual(dropped, ['an image (image/png)']);
    assert.equal(restrictToCapabilities([{ type: 'image', data: 'AA==', mimeType: 'image/png' }], { ...none, image: true }).blocks.length, 1);
    assert.equal(uriName('file:///w/x.ts#L1-L2'), 'x.ts');
  });

  it('a selection is an embedded resource with a line fragment, or a fenced text block', () => {
    const sel = { kind: 'selection' as const, id: 's', uri: 'file:///w/a.ts', name: 'a.ts', startLine: 3, endLine: 5, text: 'code' };
    assert.deepEqual(selectionBlock(sel, { image: false, audio: false, embeddedContext: true }, 'a.ts'),
      { type: 'resource', resource: { uri: 'file:///w/a.ts#L3-L5', text: 'code', mimeType: 'text/plain' } });
    assert.deepEqual(selectionBlock(sel, { image: false, audio: false, embeddedContext: false }, 'src/a.ts'),
      { type: 'text', text: 'src/a.ts (lines 3-5):\n```\ncode\n```' });
  });
});
