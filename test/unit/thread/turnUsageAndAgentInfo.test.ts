/**
 * The usage a prompt response reports (`PromptResponse.usage`, unstable), and the agent's `agentInfo`: in the thread's
 * state, in the view, and as the chat header says them.
 */
import * as assert from 'node:assert/strict';
import type { Usage } from '../../../src/acp/schema/types.gen';
import { zPromptResponse } from '../../../src/acp/schema/zod.gen';
import { agentDisplayName } from '../../../src/agents/agentDefinition';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ThreadChange } from '../../../src/thread/model/thread';
import { stateToView } from '../../../src/thread/view/toView';
import { turnUsageToView } from '../../../src/thread/view/turnUsage';
import { agentTooltip } from '../../../webview/lib/agentTooltip';
import { turnUsageText, turnUsageTooltip } from '../../../webview/lib/usageLevel';
import { header } from '../helpers/header';

const full: Usage = { totalTokens: 12_345, inputTokens: 10_000, outputTokens: 2_345, thoughtTokens: 500, cachedReadTokens: 8_000, cachedWriteTokens: 120 };

describe('usage of a prompt response', () => {
  it('maps the required counts and the optional ones given; null and invalid optional ones are absent', () => {
    assert.deepEqual(turnUsageToView(full), { total: 12_345, input: 10_000, output: 2_345, thought: 500, cachedRead: 8_000, cachedWrite: 120 });
    const parsed = zPromptResponse.parse({ stopReason: 'end_turn', usage: { totalTokens: 30, inputTokens: 20, outputTokens: 10, thoughtTokens: null, cachedReadTokens: 'many' } });
    assert.ok(parsed.usage);
    assert.deepEqual(turnUsageToView(parsed.usage), { total: 30, input: 20, output: 10 });
    assert.equal(zPromptResponse.parse({ stopReason: 'end_turn', usage: { totalTokens: 'x' } }).usage, undefined, 'an invalid usage is dropped, the response stays');
  });

  it('is thread state from the turn that reported it until a turn ends without', () => {
    const t = new AcpThread('s1');
    const changes: ThreadChange[] = [];
    t.onDidChange((c) => changes.push(c));
    t.endTurn('end_turn');
    assert.equal(changes.some((c) => c.type === 'usage'), false, 'nothing to tell');
    t.endTurn('end_turn', full);
    assert.equal(stateToView(t, header('A')).turnUsage?.total, 12_345);
    assert.ok(changes.some((c) => c.type === 'usage'));
    t.endTurn('end_turn', null);
    assert.equal(stateToView(t, header('A')).turnUsage, undefined, 'a turn without usage clears the last one');
  });

  it('reads "Last turn: 12.3k tokens (in 10k, out 2.3k, thought 500, cached 8k)", every count in the tooltip', () => {
    const v = turnUsageToView(full);
    assert.equal(turnUsageText(v), 'Last turn: 12.3k tokens (in 10k, out 2.3k, thought 500, cached 8k)');
    assert.equal(turnUsageText({ total: 900, input: 600, output: 300 }), 'Last turn: 900 tokens (in 600, out 300)');
    assert.equal(turnUsageTooltip(v), 'Tokens the agent reported for the last turn\nTotal: 12,345\nInput: 10,000\nOutput: 2,345\nThought: 500\nCache read: 8,000\nCache write: 120');
  });
});

describe('agentInfo', () => {
  it('is thread state, in the view, set again only when it changed', () => {
    const t = new AcpThread('s1');
    let fired = 0;
    t.onDidChange((c) => { if (c.type === 'agent') fired++; });
    t.setAgentInfo({ name: 'codex-acp', title: 'Codex', version: '0.9.1' });
    t.setAgentInfo({ name: 'codex-acp', title: 'Codex', version: '0.9.1' });
    assert.equal(fired, 1);
    assert.deepEqual(stateToView(t, header('A')).agentInfo, { name: 'codex-acp', title: 'Codex', version: '0.9.1' });
    t.setAgentInfo(null);
    assert.equal(stateToView(t, header('A')).agentInfo, undefined);
  });

  it("names the agent by the user's name, else by its own title", () => {
    const info = { name: 'codex-acp', title: 'Codex', version: '0.9.1' };
    assert.equal(agentDisplayName({ id: 'codex', name: 'My Codex' }, info), 'My Codex', 'named in the setting');
    assert.equal(agentDisplayName({ id: 'codex', name: 'codex' }, info), 'Codex', 'no name given (it defaults to the id)');
    assert.equal(agentDisplayName({ id: 'codex', name: 'codex' }, { title: '  ' }), 'codex', 'a blank title is no title');
    assert.equal(agentDisplayName({ id: 'codex', name: 'codex' }, undefined), 'codex', 'before initialize');
  });

  it('shows title, version and programmatic name in the header tooltip, above the folders', () => {
    assert.equal(agentTooltip({ agentInfo: { name: 'codex-acp', title: 'Codex', version: '0.9.1' }, roots: ['/w', '/x'] }), 'Codex 0.9.1 (codex-acp)\nFolders of this session:\n/w\n/x');
    assert.equal(agentTooltip({ agentInfo: { name: 'goose', version: '1.2' } }), 'goose 1.2');
    assert.equal(agentTooltip({ agentInfo: { name: 'a', title: 'Evil\u202Eeman', version: '1' } }), 'Evil<U+202E>eman 1 (a)', 'invisible characters made visible');
    assert.equal(agentTooltip({}), undefined);
  });
});
