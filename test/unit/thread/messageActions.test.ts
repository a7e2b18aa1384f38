import * as assert from 'node:assert/strict';
import type { ThreadEntry } from '../../../src/thread/model/thread';
import { editedPrompt, latestUserMessage, messageMarkdown, promptOfAnswer } from '../../../src/thread/export/messageActions';

const user = (id: string, text: string, ...more: { type: 'resource_link'; uri: string; name: string }[]): ThreadEntry =>
  ({ kind: 'user', id, content: [{ type: 'text', text }, ...more] });
const agent = (id: string, text: string): ThreadEntry => ({ kind: 'agent', id, text, blocks: [] });
const notice = (id: string): ThreadEntry => ({ kind: 'notice', id, level: 'info', text: 'stopped' });

describe('per-message actions on the thread', () => {
  const entries: ThreadEntry[] = [
    user('u1', 'first question'),
    agent('a1', '**first** answer'),
    { kind: 'thought', id: 't2', text: 'hmm', blocks: [] },
    user('u2', 'second question', { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }),
    agent('a2a', 'part one'),
    notice('n2'),
    agent('a2b', '# part two\n\n- item'),
  ];

  it('Retry resends the user prompt that produced the answer, not the last one', () => {
    assert.deepEqual(promptOfAnswer(entries, 'a1'), { prompt: [{ type: 'text', text: 'first question' }] });
    const second = promptOfAnswer(entries, 'a2b');
    assert.ok('prompt' in second);
    assert.deepEqual(second.prompt, [{ type: 'text', text: 'second question' }, { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }]);
    assert.ok('error' in promptOfAnswer(entries, 'u1'), 'a user message is not an answer');
    assert.ok('error' in promptOfAnswer(entries, 'gone'));
    assert.ok('error' in promptOfAnswer([agent('a0', 'hello')], 'a0'), 'an answer without a prompt before it');
  });

  it('Copy gives an answer as its Markdown and a user message as written, without a heading', () => {
    assert.equal(messageMarkdown(entries, 'a2b'), '# part two\n\n- item');
    assert.equal(messageMarkdown(entries, 'a1'), '**first** answer');
    assert.equal(messageMarkdown(entries, 'u1'), 'first question');
    assert.equal(messageMarkdown(entries, 'n2'), undefined);
    assert.equal(messageMarkdown(entries, 'nope'), undefined);
  });

  it('Edit & Resend replaces the typed text of the latest user message and keeps its attachments', () => {
    assert.equal(latestUserMessage(entries)?.id, 'u2');
    assert.deepEqual(editedPrompt(entries, 'u2', 'edited'), {
      prompt: [{ type: 'text', text: 'edited' }, { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }],
    });
    assert.ok('error' in editedPrompt(entries, 'u1', 'older'), 'only the latest message');
    const onlyFile: ThreadEntry[] = [{ kind: 'user', id: 'u', content: [{ type: 'resource_link', uri: 'file:///w/b.ts', name: 'b.ts' }] }];
    assert.deepEqual(editedPrompt(onlyFile, 'u', 'about b'), {
      prompt: [{ type: 'text', text: 'about b' }, { type: 'resource_link', uri: 'file:///w/b.ts', name: 'b.ts' }],
    });
  });
});
