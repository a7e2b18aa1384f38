import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ThreadChange, ThreadEntry } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';
import { entryToView, stateToView } from '../../../src/thread/view/toView';
import { header } from '../helpers/header';
import { entryOf, textOf } from '../helpers/entries';

const text = (t: string) => ({ type: 'text' as const, text: t });
const chunk = (kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk', t: string, messageId?: string): SessionUpdate =>
  ({ sessionUpdate: kind, content: text(t), ...(messageId ? { messageId } : {}) }) as SessionUpdate;

function threadWithLog() {
  const t = new AcpThread('s1', { info: () => undefined });
  const changes: ThreadChange[] = [];
  t.onDidChange((c) => changes.push(c));
  return { t, changes };
}
const kinds = (entries: readonly ThreadEntry[]) => entries.map((e) => e.kind);

describe('AcpThread', () => {
  it('masks notices and status errors (they quote stderr and error messages), not the agent\'s messages', () => {
    const t = new AcpThread('s1', undefined, (s) => s.replaceAll('hidden-value', '***'));
    t.addNotice('error', 'Agent exited (code 1):\nMY_API_TOKEN=hidden-value', 'restart');
    t.setStatus('disconnected', "Agent 'A' exited with code 1: hidden-value");
    t.handleSessionUpdate(chunk('agent_message_chunk', 'I was told hidden-value'));
    assert.deepEqual(t.entries.map((e) => ('text' in e ? e.text : '')), ['Agent exited (code 1):\nMY_API_TOKEN=***', 'I was told hidden-value']);
    assert.equal(t.error, "Agent 'A' exited with code 1: ***");
  });

  it('appends consecutive chunks of one kind into one message and reports appends', () => {
    const { t, changes } = threadWithLog();
    t.handleSessionUpdate(chunk('agent_message_chunk', 'Hel'));
    t.handleSessionUpdate(chunk('agent_message_chunk', 'lo'));
    assert.deepEqual(kinds(t.entries), ['agent']);
    assert.equal(textOf(t.entries[0]), 'Hello');
    assert.deepEqual(changes, [{ type: 'entry', index: 0 }, { type: 'append', index: 0, text: 'lo' }]);
  });

  it('starts a new message when the kind changes, and when the messageId changes', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate(chunk('agent_thought_chunk', 'think'));
    t.handleSessionUpdate(chunk('agent_message_chunk', 'a', 'm1'));
    t.handleSessionUpdate(chunk('agent_message_chunk', 'b', 'm1'));
    t.handleSessionUpdate(chunk('agent_message_chunk', 'c', 'm2'));
    assert.deepEqual(kinds(t.entries), ['thought', 'agent', 'agent']);
    assert.equal(toMarkdown(t.entries, { thoughts: 'omitted' }), '## Agent\n\nab\n\nc\n');
  });

  it('groups replayed user chunks into one user message', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate(chunk('user_message_chunk', 'one '));
    t.handleSessionUpdate(chunk('user_message_chunk', 'two'));
    t.handleSessionUpdate(chunk('agent_message_chunk', 'answer'));
    assert.deepEqual(kinds(t.entries), ['user', 'agent']);
    assert.equal(entryOf(t.entries[0], 'user').content.length, 2);
    assert.equal(toMarkdown(t.entries), '## User\n\none two\n\n## Agent\n\nanswer\n');
  });

  it('upserts tool calls by id: absent fields unchanged, content and locations replaced', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read a.ts', kind: 'read', status: 'pending', content: [{ type: 'content', content: text('x') }], locations: [{ path: '/w/a.ts', line: 3 }] } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'in_progress' } as SessionUpdate);
    let e = t.entries[0] as { title: string; status: string; content: unknown[]; locations: unknown[]; toolKind: string };
    assert.equal(e.title, 'Read a.ts');
    assert.equal(e.toolKind, 'read');
    assert.equal(e.status, 'in_progress');
    assert.equal(e.content.length, 1);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [], locations: [{ path: '/w/b.ts' }] } as SessionUpdate);
    e = t.entries[0] as typeof e;
    assert.equal(e.status, 'completed');
    assert.deepEqual(e.content, []);
    assert.deepEqual(e.locations, [{ path: '/w/b.ts' }]);
    assert.equal(t.entries.length, 1);
  });

  it('keeps an edit\'s diff ahead of new content that has none (the approved diff stays after "Wrote …")', () => {
    const { t } = threadWithLog();
    const diff = { type: 'diff' as const, path: '/w/a.ts', oldText: 'a', newText: 'b' };
    const wrote = { type: 'content' as const, content: text('Wrote /w/a.ts') };
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'Edit a.ts', kind: 'edit', status: 'pending', content: [diff] } as SessionUpdate);
    t.setPermission({ toolCallId: 'e1' }, 'p1', [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }]);
    t.clearPermission('p1', 'Allowed once');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed', content: [wrote] } as SessionUpdate);
    const e = t.entries[0] as { content: unknown[] };
    assert.deepEqual(e.content, [diff, wrote]);
    const view = entryToView(t.entries[0]);
    assert.ok(view.kind === 'toolCall');
    assert.deepEqual(view.content.map((c) => c.type), ['diff', 'content'], 'the card shows the diff, then the text');
    // once more: the diff is not doubled, and an empty content keeps it too
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'e1', content: [wrote] } as SessionUpdate);
    assert.deepEqual(e.content, [diff, wrote]);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'e1', content: [] } as SessionUpdate);
    assert.deepEqual(e.content, [diff]);
  });

  it('replaces the diffs when new content has a diff of its own', () => {
    const { t } = threadWithLog();
    const first = { type: 'diff' as const, path: '/w/a.ts', oldText: 'a', newText: 'b' };
    const second = { type: 'diff' as const, path: '/w/a.ts', oldText: 'a', newText: 'c' };
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'e2', title: 'Edit', kind: 'edit', content: [first] } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'e2', content: [second, { type: 'content', content: text('ok') }] } as SessionUpdate);
    assert.deepEqual((t.entries[0] as { content: unknown[] }).content, [second, { type: 'content', content: text('ok') }]);
    // a call without a diff still has its content replaced whole
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read', kind: 'read', content: [{ type: 'content', content: text('x') }] } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'r1', content: [{ type: 'content', content: text('y') }] } as SessionUpdate);
    assert.deepEqual((t.entries[1] as { content: unknown[] }).content, [{ type: 'content', content: text('y') }]);
  });

  it('creates a tool call from an update for an id it never saw', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress', title: 'Run tests' } as SessionUpdate);
    assert.equal(toMarkdown(t.entries), '## Agent\n\n**Tool call:** Run tests (in_progress)\n');
  });

  it('replaces the plan, the commands and the config options completely', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }, { content: 'b', priority: 'low', status: 'pending' }] } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'plan', entries: [{ content: 'c', priority: 'medium', status: 'in_progress' }] } as SessionUpdate);
    assert.deepEqual(t.plan.map((p) => p.content), ['c']);
    t.handleSessionUpdate({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'web', description: 'Search', input: { hint: 'query' } }] } as SessionUpdate);
    assert.deepEqual(stateToView(t, header('A')).commands, [{ name: 'web', description: 'Search', hint: 'query' }]);
  });

  it('reads currentModeId, falling back to the guide\'s modeId', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'code' } as SessionUpdate);
    assert.equal(t.currentModeId, 'code');
    t.handleSessionUpdate({ sessionUpdate: 'current_mode_update', modeId: 'ask' } as unknown as SessionUpdate);
    assert.equal(t.currentModeId, 'ask');
  });

  it('applies session_info_update: omitted title unchanged, null clears it', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Fix the bug' } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'session_info_update', updatedAt: '2026-01-01T00:00:00Z' } as SessionUpdate);
    assert.equal(t.title, 'Fix the bug');
    t.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: null } as SessionUpdate);
    assert.equal(t.title, '');
  });

  it('keeps usage with cost', () => {
    const { t } = threadWithLog();
    t.handleSessionUpdate({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'EUR' } } as SessionUpdate);
    assert.deepEqual(stateToView(t, header('A')).usage, { used: 10, size: 100, cost: { amount: 0.5, currency: 'EUR' } });
  });

  it('logs and ignores kinds it does not know (a newer protocol\'s)', () => {
    const logged: string[] = [];
    const t = new AcpThread('s1', { info: (m) => logged.push(m) });
    t.handleSessionUpdate({ sessionUpdate: 'x_future_update', detail: 1 } as unknown as SessionUpdate);
    assert.equal(t.entries.length, 0);
    assert.match(logged[0] ?? '', /ignored session\/update 'x_future_update'/);
  });

  it('parks a permission on its tool call, and cancel marks unfinished calls cancelled', () => {
    const { t } = threadWithLog();
    t.setStatus('working');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'Write', kind: 'edit', status: 'pending' } as SessionUpdate);
    t.setPermission({ toolCallId: 'w' }, 'p1', [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }]);
    assert.equal(t.status, 'awaitingPermission');
    const view = entryToView(t.entries[0]);
    assert.ok(view.kind === 'toolCall' && view.status === 'waitingForConfirmation' && view.permission?.options[0].optionId === 'ok');
    t.clearPermission('p1', 'Allowed once');
    assert.equal(t.status, 'working');
    assert.equal(toMarkdown(t.entries), '## Agent\n\n**Tool call:** Write (pending)\n');
    t.cancelUnfinishedToolCalls();
    assert.equal(toMarkdown(t.entries), '## Agent\n\n**Tool call:** Write (cancelled)\n');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'w', status: 'in_progress' } as SessionUpdate);
    assert.equal(toMarkdown(t.entries), '## Agent\n\n**Tool call:** Write (cancelled)\n', 'a late update does not revive a cancelled call');
  });

  it('shows a notice for stop reasons a user must know about', () => {
    const { t } = threadWithLog();
    t.endTurn('end_turn');
    assert.equal(t.entries.length, 0);
    for (const r of ['max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const) t.endTurn(r);
    assert.equal(t.entries.filter((e) => e.kind === 'notice').length, 4);
    assert.equal(t.status, 'idle');
  });
});

describe('AcpThread change events: each update fires the event of what it changed', () => {
  const types = (changes: ThreadChange[]) => changes.map((c) => c.type);
  const cases: [string, (t: AcpThread) => void, ThreadChange['type'][]][] = [
    ['plan', (t) => t.handleSessionUpdate({ sessionUpdate: 'plan', entries: [] } as SessionUpdate), ['plan']],
    ['available_commands_update', (t) => t.handleSessionUpdate({ sessionUpdate: 'available_commands_update', availableCommands: [] } as SessionUpdate), ['commands']],
    ['current_mode_update', (t) => t.handleSessionUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'code' } as SessionUpdate), ['modes']],
    ['config_option_update', (t) => t.handleSessionUpdate({ sessionUpdate: 'config_option_update', configOptions: [] } as SessionUpdate), ['config']],
    ['session_info_update', (t) => t.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'T' } as SessionUpdate), ['title']],
    ['usage_update', (t) => t.handleSessionUpdate({ sessionUpdate: 'usage_update', used: 1, size: 2 } as SessionUpdate), ['usage']],
    ['setSessionSetup with config options and modes', (t) => t.setSessionSetup({ configOptions: [], modes: { currentModeId: 'a', availableModes: [] } }), ['config', 'modes']],
    ['setSessionSetup with config options only', (t) => t.setSessionSetup({ configOptions: [], modes: null }), ['config']],
    ['setSessionSetup with nothing', (t) => t.setSessionSetup({}), []],
    ['setConfigOptions', (t) => t.setConfigOptions([]), ['config']],
    ['setCurrentMode', (t) => t.setCurrentMode('ask'), ['modes']],
    ['setStatus', (t) => t.setStatus('working'), ['status']],
    ['setStatus with only an error', (t) => t.setStatus('starting', 'boom'), ['status']],
    ['setStatus unchanged', (t) => t.setStatus('starting'), []],
    ['restore', (t) => t.restore([], 'Old', []), ['title', 'plan']],
    ['addNotice', (t) => t.addNotice('info', 'hi'), ['entry']],
    ['endTurn with a notice', (t) => t.endTurn('max_tokens'), ['entry', 'status']],
  ];
  for (const [name, act, expected] of cases) {
    it(`${name} → ${expected.join(', ') || 'nothing'}`, () => {
      const { t, changes } = threadWithLog();
      act(t);
      assert.deepEqual(types(changes), expected);
    });
  }

  it('never fires a catch-all state change', () => {
    const { t, changes } = threadWithLog();
    for (const [, act] of cases) act(t);
    t.handleSessionUpdate(chunk('agent_message_chunk', 'a'));
    t.handleSessionUpdate(chunk('agent_message_chunk', 'b'));
    assert.ok(changes.length > 0);
    assert.ok(!changes.some((c) => (c.type as string) === 'state'));
  });
});
