/**
 * Every `session/update` kind, kept as its entry of src/thread/model/updateKinds.ts declares: what a reload replays
 * (the transcript log written by the store's recorder, read back, restored into a fresh thread) is what the chat showed
 * live, for the kinds kept as entries or state; a kind kept live only is gone after the reload. A kind the table gains
 * needs a sample here (the record below is keyed by the schema's kinds): docs/recipes.md.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { zSessionUpdate } from '../../../src/acp/schema/zod.gen';
import { readTranscript, TranscriptWriter } from '../../../src/host/history/transcriptLog';
import { ThreadRecorder } from '../../../src/host/history/transcriptRecorder';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';
import { AcpThread } from '../../../src/thread/model/thread';
import { updateKinds, type SessionUpdateKind } from '../../../src/thread/model/updateKinds';
import { threadSnapshot } from '../../../src/thread/view/toView';
import { header } from '../helpers/header';

const text = (t: string) => ({ type: 'text', text: t });

/** What the session's setup response said before the kind's samples came (a reopened session gets it again). */
const setup: Partial<Record<SessionUpdateKind, (t: AcpThread) => void>> = {
  current_mode_update: (t) => t.setSessionSetup({ modes: { currentModeId: 'code', availableModes: [{ id: 'code', name: 'Code' }, { id: 'ask', name: 'Ask' }] } }),
};

/** What the agent sends to show each kind, as on the wire (validated below); a kind may need others before it. */
const samples: { readonly [K in SessionUpdateKind]: readonly Record<string, unknown>[] } = {
  user_message_chunk: [{ sessionUpdate: 'user_message_chunk', content: text('Hello') }],
  agent_message_chunk: [{ sessionUpdate: 'agent_message_chunk', content: text('Hi there, how can I help?') }],
  agent_thought_chunk: [{ sessionUpdate: 'agent_thought_chunk', content: text('Thinking it over') }],
  tool_call: [{ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read a.ts', kind: 'read', status: 'completed', locations: [{ path: '/w/a.ts' }] }],
  tool_call_update: [{ sessionUpdate: 'tool_call_update', toolCallId: 't2', title: 'Edit', status: 'completed', content: [{ type: 'content', content: text('done') }] }],
  plan: [{ sessionUpdate: 'plan', entries: [{ content: 'Look around', priority: 'high', status: 'completed' }, { content: 'Fix it', priority: 'low', status: 'pending' }] }],
  plan_update: [{ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p1', content: '## The plan' } }],
  plan_removed: [
    { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p1', content: 'kept' } },
    { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p2', uri: 'file:///w/plan.md' } },
    { sessionUpdate: 'plan_removed', planId: 'p2' },
  ],
  available_commands_update: [{ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search the web' }] }],
  current_mode_update: [{ sessionUpdate: 'current_mode_update', currentModeId: 'ask' }],
  config_option_update: [{ sessionUpdate: 'config_option_update', configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }] }],
  session_info_update: [{ sessionUpdate: 'session_info_update', title: 'Fixing the build' }],
  usage_update: [{ sessionUpdate: 'usage_update', used: 1200, size: 200000 }],
  notice: [{ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying in 5 s' }],
  compaction_update: [{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [text('We fixed the build.')] }],
  compaction_summary_chunk: [
    { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('Summary so far.') },
    { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' },
  ],
  subagent_update: [{ sessionUpdate: 'subagent_update', sessionId: 'child', title: 'Explore', description: 'Looks around', state: { state: 'idle', stopReason: 'end_turn' } }],
  session_message: [{ sessionUpdate: 'session_message', messageId: 'm1', senderSessionId: 's1', recipientSessionId: 'child', content: [text('Look at a.ts')] }],
  session_message_chunk: [{ sessionUpdate: 'session_message_chunk', messageId: 'm2', content: text('Found it.') }],
};

describe('every session/update kind is kept as its table entry says (src/thread/model/updateKinds.ts)', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-kinds-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A thread before the kind's samples: new, with the session's setup. */
  function fresh(kind: SessionUpdateKind): AcpThread {
    const t = new AcpThread('s1');
    setup[kind]?.(t);
    return t;
  }

  /** Shows the kind's samples live while the store's recorder writes them; then reloads them into a fresh thread. */
  function liveAndReloaded(kind: SessionUpdateKind): { live: AcpThread; reloaded: AcpThread } {
    const file = path.join(dir, `${kind}.jsonl`);
    const live = fresh(kind);
    const writer = new TranscriptWriter(file, { k: 'meta', v: 1, sessionId: 's1', agentId: 'a1', agentName: 'Agent', cwd: '/w', createdAt: 1 });
    const recorder = new ThreadRecorder(live, writer);
    live.onDidChange((c) => recorder.change(c));
    for (const sample of samples[kind]) live.handleSessionUpdate(zSessionUpdate.parse(sample));
    writer.flushSync(); // the window closes
    const back = readTranscript(file);
    assert.ok(back, 'the log reads back');
    const reloaded = fresh(kind);
    reloaded.restore(back.entries, back.title, back.plan, back.terminals, back.plans, back.planCancelled);
    return { live, reloaded };
  }

  const view = (t: AcpThread) => threadSnapshot(t, header('Agent'), 0);

  for (const kind of Object.keys(samples) as SessionUpdateKind[]) {
    const kept = updateKinds[kind].kept;
    it(`${kind}: ${kept.as === 'live' ? 'shown live, gone after a reload' : `a reload shows what was shown live (kept as ${kept.as})`}`, () => {
      assert.ok(samples[kind].some((s) => s.sessionUpdate === kind), 'the samples send the kind');
      const blank = view(fresh(kind));
      const { live, reloaded } = liveAndReloaded(kind);
      assert.notDeepEqual(view(live), blank, 'the kind shows something live');
      if (kept.as === 'live') return assert.deepEqual(view(reloaded), blank, `declared live only (${kept.why}), yet a reload shows it`);
      assert.deepEqual(view(reloaded), view(live));
      if (kept.as === 'entries') {
        assert.deepEqual([...new Set(live.entries.map((e) => e.kind))], [...kept.kinds], 'the entries it builds are the kinds it declares');
        const markdown = toMarkdown(live.entries);
        assert.ok(markdown, 'its entries read as Markdown');
        assert.equal(toMarkdown(reloaded.entries), markdown);
      }
    });
  }
});
