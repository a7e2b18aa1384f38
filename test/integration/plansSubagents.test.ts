/**
 * Plans by id and subagents against a scripted agent (plansSubagents.json, whose steps run only when `initialize`
 * advertised `plan` and `subagents`): the plans as the chat shows them, a subagent's own updates (its session id)
 * in its card in the parent's thread, its permission request answered in the card, and Cancel sent only to a
 * subagent whose capabilities allow it.
 */
import * as assert from 'node:assert/strict';
import type { SwitchboardTestApi } from '../../src/api';
import type { EntryView, SubagentView } from '../../src/shared/viewModel';
import { api, until, useScriptedAgent } from './helpers';

function cards(sb: SwitchboardTestApi, id: string): SubagentView[] {
  return (sb.snapshot(id)?.entries ?? []).filter((e): e is SubagentView => e.kind === 'subagent');
}

const label = (e: EntryView): string => (e.kind === 'agent' || e.kind === 'thought' || e.kind === 'sessionMessage' ? `${e.kind}: ${e.text}` : e.kind === 'toolCall' ? `toolCall: ${e.title} (${e.status})` : e.kind);

describe('plans by id and subagents against a scripted agent', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(() => { for (const id of sb.sessionIds()) sb.closeSession(id); });
  after(async () => { await sb.stopAll(); });

  it('advertises plan and subagents; plans are replaced and removed by id, an unknown type is ignored', async () => {
    const caps = sb.clientCapabilities() as { plan?: unknown; subagents?: unknown };
    assert.deepEqual([caps.plan, caps.subagents], [{}, {}]);
    const agent = await useScriptedAgent('plansSubagents');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'plans');
    const plans = sb.snapshot(id)?.state.plans ?? [];
    assert.deepEqual(plans.map((p) => `${p.planId}:${p.type}`), ['p-steps:items', 'p-notes:markdown', 'p-file:file']);
    const steps = plans[0];
    assert.ok(steps?.type === 'items');
    assert.deepEqual(steps.entries.map((e) => e.status), ['completed', 'in_progress', 'pending'], 'the second update replaced the first');
  });

  it('puts each subagent\'s updates (its own session id) in its card in the parent\'s thread', async () => {
    const agent = await useScriptedAgent('plansSubagents');
    const id = await sb.newSession(agent);
    await sb.prompt(id, 'subagents');
    const snap = sb.snapshot(id);
    assert.deepEqual(snap?.entries.map((e) => e.kind), ['user', 'agent', 'subagent', 'subagent', 'agent']);
    const [explore, tests] = cards(sb, id);
    assert.ok(explore && tests);
    assert.deepEqual([explore.sessionId, explore.title, explore.status, explore.canCancel], [`${id}-explore`, 'Explore <b>the</b> code', 'done', false]);
    assert.deepEqual(explore.entries.map(label), [
      'sessionMessage: Find every call of `retry()`.', 'thought: Searching the sources first.',
      'agent: Looking at **src/net** for the retry helper, one file at a time.', 'toolCall: Search for retry( (completed)', 'agent: Found 3 call sites.',
    ]);
    const message = explore.entries[0];
    assert.ok(message?.kind === 'sessionMessage' && message.direction === 'in' && message.peer === 'the main agent');
    assert.deepEqual([tests.status, tests.detail], ['failed', 'The test runner crashed.']);
    assert.deepEqual(tests.entries.map(label), ['agent: Running the unit tests.', 'toolCall: npm test (failed)']);
    const main = snap?.entries.at(-1);
    assert.ok(main?.kind === 'agent' && main.text === 'Both subagents reported back.', 'the parent\'s own text stays outside the cards');
  });

  it('parks a subagent\'s permission request on its tool call in the card, and the answer reaches the subagent', async () => {
    const agent = await useScriptedAgent('plansSubagents');
    const id = await sb.newSession(agent);
    const turn = sb.prompt(id, 'permission');
    const call = await until(() => {
      const e = cards(sb, id)[0]?.entries[0];
      return e?.kind === 'toolCall' && e.permission ? e : undefined;
    }, 'the permission request in the card');
    assert.equal(sb.snapshot(id)?.state.status, 'awaitingPermission');
    const option = call.permission?.options.find((o) => o.kind === 'allow_once');
    assert.ok(option && call.permission);
    assert.ok(sb.session(id)?.permissions.respond(call.permission.requestId, option.optionId));
    await turn;
    const card = cards(sb, id)[0];
    assert.deepEqual(card?.entries.map(label), ['toolCall: Write notes.md (completed)', `agent: [permission] ${option.optionId}: {"outcome":{"outcome":"selected","optionId":"${option.optionId}"}}\n`]);
  });

  it('sends session/cancel for a subagent only when its capabilities allow it', async () => {
    const agent = await useScriptedAgent('plansSubagents', { SCRIPTED_AGENT_DELAY_SCALE: '1' }, 'scripted-plans-subagents-slow');
    const id = await sb.newSession(agent);
    const session = sb.session(id);
    assert.ok(session);

    const slow = sb.prompt(id, 'slow');
    await until(() => cards(sb, id)[0]?.entries.length, 'the slow subagent at work');
    assert.equal(cards(sb, id)[0]?.canCancel, true);
    assert.equal(session.cancelSubagent(`${id}-slow`), true);
    await slow;
    assert.equal(cards(sb, id)[0]?.status, 'cancelled', 'the agent stopped it');

    const steady = sb.prompt(id, 'steady');
    await until(() => cards(sb, id)[1]?.entries.length, 'the steady subagent at work');
    assert.equal(cards(sb, id)[1]?.canCancel, false);
    assert.equal(session.cancelSubagent(`${id}-steady`), false, 'not sent: the agent does not permit it');
    assert.equal(session.cancelSubagent('never-announced'), false);
    await steady;
    const card = cards(sb, id)[1];
    assert.equal(card?.status, 'done', 'it was not cancelled');
    assert.ok(card?.entries.some((e) => e.kind === 'agent' && e.text.includes('Steady work done.')));
  });
});
