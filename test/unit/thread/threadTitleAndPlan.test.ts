/** An untitled session is named by its first prompt until the agent names it; a cancelled plan shows as such. */
import * as assert from 'node:assert/strict';
import { promptTitle, promptTitleMax } from '../../../src/thread/util/promptTitle';
import { AcpThread } from '../../../src/thread/model/thread';
import { stateToView } from '../../../src/thread/view/toView';
import { header } from '../helpers/header';

const text = (t: string) => [{ type: 'text' as const, text: t }];

describe('promptTitle', () => {
  it('collapses whitespace and keeps a short prompt whole', () => {
    assert.equal(promptTitle(text('  Fix the\n\nlogin   bug ')), 'Fix the login bug');
  });

  it('cuts a long prompt at a word boundary, with an ellipsis, within the limit', () => {
    const long = 'Refactor the session manager so that every restart keeps the transcript and the draft of the user';
    const t = promptTitle(text(long)) ?? '';
    assert.ok(Array.from(t).length <= promptTitleMax, t);
    assert.ok(t.endsWith('…') && long.startsWith(t.slice(0, -1)), t);
    assert.ok(!t.slice(0, -1).endsWith(' '), 'no space before the ellipsis');
  });

  it('has no title for a prompt without text', () => {
    assert.equal(promptTitle([{ type: 'image', data: 'AA==', mimeType: 'image/png' }]), undefined);
  });
});

describe('AcpThread title', () => {
  it('takes the first prompt as its title, then the agent\'s title wins, and a cleared agent title falls back to the prompt', () => {
    const thread = new AcpThread('s1');
    const seen: string[] = [];
    thread.onDidChange((c) => { if (c.type === 'title') seen.push(thread.title); });
    thread.addUserMessage(text('Why does the build fail?'));
    thread.addUserMessage(text('And the tests?'));
    assert.equal(thread.title, 'Why does the build fail?');
    thread.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Build failure' });
    assert.equal(thread.title, 'Build failure');
    thread.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: null });
    assert.equal(thread.title, 'Why does the build fail?');
    assert.deepEqual(seen, ['Why does the build fail?', 'Build failure', 'Why does the build fail?']);
  });

  it('keeps a title the agent sent before the first prompt, and a restored one', () => {
    const named = new AcpThread('s1');
    named.handleSessionUpdate({ sessionUpdate: 'session_info_update', title: 'Named early' });
    named.addUserMessage(text('hello'));
    assert.equal(named.title, 'Named early');
    const restored = new AcpThread('s2');
    restored.restore([], 'Stored title', []);
    restored.addUserMessage(text('hello again'));
    assert.equal(restored.title, 'Stored title');
  });
});

describe('AcpThread plan after a cancel', () => {
  it('shows the unfinished steps as cancelled once the turn is cancelled, until the agent sends a plan again', () => {
    const thread = new AcpThread('s1');
    const plan = (status2: 'in_progress' | 'completed') => thread.handleSessionUpdate({ sessionUpdate: 'plan', entries: [
      { content: 'a', priority: 'high', status: 'completed' },
      { content: 'b', priority: 'high', status: status2 },
      { content: 'c', priority: 'low', status: 'pending' },
    ] });
    plan('in_progress');
    thread.cancelUnfinishedToolCalls();
    assert.deepEqual(stateToView(thread, header('A')).plan.map((p) => p.status), ['completed', 'cancelled', 'cancelled']);
    plan('completed');
    assert.deepEqual(stateToView(thread, header('A')).plan.map((p) => p.status), ['completed', 'completed', 'pending']);
  });
});
