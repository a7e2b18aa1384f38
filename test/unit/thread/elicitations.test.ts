import * as assert from 'node:assert/strict';
import { replayTranscript } from '../../../src/host/history/transcriptLog';
import type { TranscriptRecord } from '../../../src/host/history/transcriptLog';
import type { ElicitationView } from '../../../src/shared/elicitationModel';
import { AcpThread } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';
import { entryToView } from '../../../src/thread/view/toView';

const view = (requestId: string): ElicitationView => ({ requestId, message: 'Your name?', mode: 'form', form: { fields: [] }, state: 'pending' });

describe('elicitations in the thread', () => {
  it('go into the card of their tool call, else into their own entry; each change is an entry change', () => {
    const t = new AcpThread('s1');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'tc', title: 'Deploy' });
    const changes: number[] = [];
    t.onDidChange((c) => { if (c.type === 'entry') changes.push(c.index); });
    t.elicitations.add(view('a'), 'tc');
    t.elicitations.add(view('b'), 'unknown-call');
    t.elicitations.add(view('c'));
    assert.deepEqual(t.entries.map((e) => e.kind), ['toolCall', 'elicitation', 'elicitation']);
    const card = entryToView(t.entries[0]);
    assert.equal(card.kind === 'toolCall' && card.elicitations?.[0].requestId, 'a');
    t.elicitations.update('a', (v) => ({ ...v, state: 'done', outcome: 'Declined' }));
    assert.equal(t.elicitations.find('a')?.view.outcome, 'Declined');
    t.elicitations.update('nope', (v) => v);
    assert.deepEqual(changes, [0, 1, 2, 0]);
  });

  it('a pending one read back from the transcript store shows as not answered; Markdown export names it', () => {
    const t = new AcpThread('s1');
    t.elicitations.add(view('a'));
    const records = [
      { k: 'meta', v: 1, sessionId: 's1', agentId: 'a1', agentName: 'Agent', cwd: '/w', createdAt: 1 },
      { k: 'e', i: 0, e: t.entries[0] },
    ] as unknown as TranscriptRecord[];
    const restored = replayTranscript(records)?.entries[0];
    assert.ok(restored?.kind === 'elicitation');
    assert.deepEqual([restored.elicitation.state, restored.elicitation.outcome], ['done', 'Not answered']);
    assert.match(toMarkdown(restored ? [restored] : []), /\*\*Question:\*\* Your name\? \(Not answered\)/);
  });
});
