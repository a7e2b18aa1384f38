import * as assert from 'node:assert/strict';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import type { ContentBlock } from '../../../src/acp/schema/types.gen';
import { AcpThread } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const userChunk = (content: ContentBlock) => zSessionUpdate.parse({ sessionUpdate: 'user_message_chunk', content });
const agentChunk = (t: string) => zSessionUpdate.parse({ sessionUpdate: 'agent_message_chunk', content: text(t) });

describe('a user_message_chunk that echoes the prompt just sent (src/thread/model/entryStream.ts)', () => {
  it('is shown once: the echo, whole or in pieces, adds nothing', () => {
    const t = new AcpThread('s1');
    t.addUserMessage([text('Fix the build'), { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }]);
    const changes: string[] = [];
    t.onDidChange((c) => changes.push(c.type));
    for (const piece of ['Fix ', 'the ', 'build']) t.handleSessionUpdate(userChunk(text(piece)));
    t.handleSessionUpdate(userChunk({ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }));
    t.handleSessionUpdate(agentChunk('On it.'));
    assert.deepEqual(t.entries.map((e) => e.kind), ['user', 'agent']);
    assert.equal(toMarkdown(t.entries), '## User\n\nFix the build\n\n[a.ts](file:///w/a.ts)\n\n## Agent\n\nOn it.\n');
    assert.deepEqual(changes, ['entry'], 'the echo changed nothing the chat shows (the one change is the answer)');
  });

  it('is recognised after the warning shown under the prompt too', () => {
    const t = new AcpThread('s1');
    t.addUserMessage([text('Hello')]);
    t.addNotice('warning', 'Not sent, because the agent does not accept it: an image.');
    t.handleSessionUpdate(userChunk(text('Hello')));
    assert.deepEqual(t.entries.map((e) => e.kind), ['user', 'notice']);
  });

  it('keeps a user chunk that is new: text the prompt did not have, or a prompt replayed by session/load', () => {
    const t = new AcpThread('s1');
    t.addUserMessage([text('Hello')]);
    t.handleSessionUpdate(userChunk(text('Hello')));
    t.handleSessionUpdate(userChunk(text(' and more')));
    assert.equal(toMarkdown(t.entries), '## User\n\nHello and more\n');

    const loaded = new AcpThread('s2');
    for (const [who, words] of [['user', 'First'], ['agent', 'Answer'], ['user', 'First']] as const) {
      loaded.handleSessionUpdate(who === 'user' ? userChunk(text(words)) : agentChunk(words));
    }
    assert.deepEqual(loaded.entries.map((e) => e.kind), ['user', 'agent', 'user'], 'a replayed history shows every user message');
  });

  it('is only the echo of the newest prompt: once the agent answered, the same words again are a new message', () => {
    const t = new AcpThread('s1');
    t.addUserMessage([text('Again')]);
    t.handleSessionUpdate(agentChunk('Done.'));
    t.handleSessionUpdate(userChunk(text('Again')));
    assert.deepEqual(t.entries.map((e) => e.kind), ['user', 'agent', 'user']);
  });
});
