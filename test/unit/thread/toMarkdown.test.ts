import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { AcpThread } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';

const text = (t: string) => ({ type: 'text' as const, text: t });

function conversation(): AcpThread {
  const t = new AcpThread('s1', { info: () => undefined });
  t.addUserMessage([text('Fix '), text('the bug in '), { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }, { type: 'image', mimeType: 'image/png', data: 'AA==' }]);
  t.handleSessionUpdate({ sessionUpdate: 'agent_thought_chunk', content: text('Look at a.ts first.') } as SessionUpdate);
  t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read a.ts', kind: 'read', status: 'completed' } as SessionUpdate);
  t.handleSessionUpdate({ sessionUpdate: 'agent_message_chunk', content: text('Fixed: ') } as SessionUpdate);
  t.handleSessionUpdate({ sessionUpdate: 'agent_message_chunk', content: text('the loop was off by one.') } as SessionUpdate);
  t.endTurn('max_tokens');
  t.addUserMessage([text('Thanks')]);
  return t;
}

describe('toMarkdown (src/thread/toMarkdown)', () => {
  it('renders who said what, thoughts collapsed, tool calls as one line with their status', () => {
    assert.equal(toMarkdown(conversation().entries), [
      '## User',
      'Fix the bug in ',
      '[a.ts](file:///w/a.ts)',
      '[image]',
      '## Agent',
      '<details><summary>Thinking</summary>\n\nLook at a.ts first.\n\n</details>',
      '**Tool call:** Read a.ts (completed)',
      'Fixed: the loop was off by one.',
      '> **Warning:** The agent stopped: it reached its maximum number of tokens.',
      '## User',
      'Thanks',
    ].join('\n\n') + '\n');
  });

  it('leaves thoughts out on request', () => {
    const md = toMarkdown(conversation().entries, { thoughts: 'omitted' });
    assert.ok(!md.includes('Look at a.ts first.'));
    assert.match(md, /## Agent\n\n\*\*Tool call:\*\* Read a\.ts \(completed\)/);
  });

  it('is empty for no entries; an info notice is a plain quote', () => {
    assert.equal(toMarkdown([]), '');
    const t = new AcpThread('s1');
    t.addNotice('info', 'Turn cancelled.');
    t.addNotice('error', 'It broke.');
    assert.equal(toMarkdown(t.entries), '> Turn cancelled.\n\n> **Error:** It broke.\n');
  });
});
