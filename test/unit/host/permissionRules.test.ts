import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CancellationToken } from 'vscode-jsonrpc/node';
import type { ApprovalLevel } from '../../../src/shared/approvalLevel';
import { commandForms } from '../../../src/host/permissions/grantLedger';
import { makeRuleOption, PermissionBroker } from '../../../src/host/permissions/permissionBroker';
import { compileRules } from '../../../src/host/permissions/rules/requestRules';
import type { RequestRuling } from '../../../src/host/permissions/rules/requestRules';
import { RuleSet } from '../../../src/host/permissions/rules/ruleSet';
import type { Rule } from '../../../src/host/permissions/rules/ruleSet';
import type { RuleDraft } from '../../../src/host/permissions/rules/ruleSuggestions';
import { bashParser, nodeModulesWasm } from '../../../src/host/permissions/rules/shellParser';
import type { ShellParser } from '../../../src/host/permissions/rules/shellParser';
import type { ToolCallEntry } from '../../../src/thread/model/toolCall';
import { findEntry } from '../helpers/entries';
import { fakeEnvironment, fakeSession, options, permissionRequest } from './permissionHelpers';

const repoRoot = path.resolve(__dirname, '../../../..');

describe('PermissionBroker with rules', () => {
  let parser: ShellParser;
  before(async () => { parser = await bashParser(nodeModulesWasm(repoRoot)); });

  /** An environment whose settings hold `settings`; `made` is what the rule editor returns. */
  const env = (settings: Rule[], level: ApprovalLevel = 'rules') => {
    const matched: Rule[] = [];
    const editor: { drafts?: readonly RuleDraft[]; check?: (rules: readonly Rule[]) => Promise<RequestRuling>; made: Rule[] } = { made: [] };
    const base = fakeEnvironment(level);
    return Object.assign(base, {
      matched, editor,
      rules: (roots: readonly string[], own: readonly Rule[]) => Promise.resolve([...own, ...settings].length === 0 ? undefined : compileRules(new RuleSet([...own, ...settings], roots, true), parser)),
      parser: () => Promise.resolve(parser),
      ruleMatched: (rules: readonly Rule[]) => { matched.push(...rules); },
      makeRules: (drafts: readonly RuleDraft[], check: (rules: readonly Rule[]) => Promise<RequestRuling>) => {
        editor.drafts = drafts;
        editor.check = check;
        return Promise.resolve(editor.made);
      },
    });
  };
  const rule = (action: Rule['action'], pattern: string, scope: Rule['scope'] = 'workspace'): Rule => ({ action, kind: 'command', pattern, scope });
  const card = (thread: { entries: readonly unknown[] }, id: string) => findEntry(thread.entries as never, 'toolCall', (e: ToolCallEntry) => e.toolCallId === id);
  const parked = async (broker: PermissionBroker) => {
    for (const end = Date.now() + 2000; broker.pending.length === 0 && Date.now() < end;) await new Promise((r) => setTimeout(r, 2));
    assert.equal(broker.pending.length, 1);
    return broker.pending[0].requestId;
  };

  it('an allow rule answers with the agent\'s allow-once option, names itself, counts, and binds like an answer', async () => {
    const { ctx, thread } = fakeSession();
    const e = env([rule('allow', 'npm test')]);
    const broker = new PermissionBroker(ctx, e);
    const answer = await broker.request(permissionRequest('t1', { kind: 'execute', rawInput: { command: 'npm test' } }), CancellationToken.None);
    assert.deepEqual(answer, { outcome: { outcome: 'selected', optionId: 'allow' } }, 'allow-once, never always');
    assert.equal(card(thread, 't1').permissionOutcome, 'Allowed by the workspace rule `npm test`');
    assert.deepEqual(e.matched.map((r) => r.pattern), ['npm test']);
    assert.equal(broker.grants.command(commandForms('npm', ['test'])).kind, 'allowed', 'the answer is in the ledger');
  });

  it('a deny rule answers reject-once; an allow rule with no allow-once option asks', async () => {
    const { ctx } = fakeSession();
    const broker = new PermissionBroker(ctx, env([rule('deny', 'rm *'), rule('allow', 'ls')]));
    assert.deepEqual(await broker.request(permissionRequest('t1', { rawInput: { command: 'ls; rm -rf /' } }), CancellationToken.None), { outcome: { outcome: 'selected', optionId: 'reject' } });
    const onlyAlways = broker.request(permissionRequest('t2', { rawInput: { command: 'ls' } }, options.filter((o) => o.kind !== 'allow_once')), CancellationToken.None);
    const id = await parked(broker);
    broker.respond(id, 'reject');
    await onlyAlways;
  });

  it('an ask rule asks even for a read that auto-approval would answer', async () => {
    const { ctx } = fakeSession('s1', path.resolve('/work/project'));
    const broker = new PermissionBroker(ctx, env([{ action: 'ask', kind: 'read', pattern: 'secrets/**', scope: 'user' }], 'reads'));
    const p = broker.request(permissionRequest('t1', { kind: 'read', locations: [{ path: path.resolve('/work/project/secrets/key') }] }), CancellationToken.None);
    const id = await parked(broker);
    broker.respond(id, 'reject');
    assert.deepEqual(await p, { outcome: { outcome: 'selected', optionId: 'reject' } });
  });

  it('a waiting card offers a rule; a session rule made in the editor answers it and stays for the session', async () => {
    const { ctx, thread } = fakeSession();
    const e = env([]);
    const broker = new PermissionBroker(ctx, e);
    const first = broker.request(permissionRequest('t1', { kind: 'execute', rawInput: { command: 'npm test && git log -p' } }), CancellationToken.None);
    const id = await parked(broker);
    const shown = card(thread, 't1').permission?.options ?? [];
    assert.deepEqual(shown.at(-1), { optionId: makeRuleOption, name: 'Always allow npm test…', kind: 'rule' });
    assert.equal(broker.respond(id, makeRuleOption), true);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(e.editor.drafts?.map((d) => d.pattern), ['npm test', 'npm test *', 'npm *', 'git log -p', 'git log *', 'git *']);
    assert.equal((await e.editor.check?.([rule('allow', 'npm test', 'session')]))?.verdict, undefined, 'one part of the chain is not enough');
    assert.equal((await e.editor.check?.([rule('allow', 'npm test', 'session'), rule('allow', 'git log *', 'session')]))?.verdict?.action, 'allow');
    assert.equal(broker.pending.length, 1, 'the editor is still open: the card waits');
    // the editor returns: the rules answer the card
    e.editor.made = [rule('allow', 'npm test', 'session'), rule('allow', 'git log *', 'session')];
    assert.equal(broker.respond(id, makeRuleOption), true);
    assert.deepEqual(await first, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.equal(card(thread, 't1').permissionOutcome, 'Allowed by the session rule `npm test`');
    // the next request of the same command is answered by the session rule, without a card
    assert.deepEqual(await broker.request(permissionRequest('t2', { rawInput: { command: 'git log -p --stat' } }), CancellationToken.None), { outcome: { outcome: 'selected', optionId: 'allow' } });
    broker.resetApprovals();
    assert.equal(broker.rules.own.length, 0);
    const third = broker.request(permissionRequest('t3', { rawInput: { command: 'git log' } }), CancellationToken.None);
    broker.respond(await parked(broker), 'reject');
    await third;
  });

  it('a closed editor changes nothing: the card still asks', async () => {
    const { ctx } = fakeSession();
    const broker = new PermissionBroker(ctx, env([]));
    const p = broker.request(permissionRequest('t1', { rawInput: { command: 'make' } }), CancellationToken.None);
    const id = await parked(broker);
    broker.respond(id, makeRuleOption);
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(broker.pending.length, 1);
    broker.respond(id, 'allow');
    assert.deepEqual(await p, { outcome: { outcome: 'selected', optionId: 'allow' } });
  });

  it('the agent\'s own option with the rule button\'s id hides the button', async () => {
    const { ctx, thread } = fakeSession();
    const broker = new PermissionBroker(ctx, env([]));
    const p = broker.request(permissionRequest('t1', { rawInput: { command: 'make' } }, [...options, { optionId: makeRuleOption, name: 'Mine', kind: 'allow_once' }]), CancellationToken.None);
    const id = await parked(broker);
    assert.equal(card(thread, 't1').permission?.options.filter((o) => o.optionId === makeRuleOption).length, 1);
    broker.respond(id, makeRuleOption);
    assert.deepEqual(await p, { outcome: { outcome: 'selected', optionId: makeRuleOption } });
  });
  describe('the approval level', () => {
    it('asking for everything, an allow rule answers nothing and no rule is offered; a deny rule still refuses', async () => {
      const { ctx, thread } = fakeSession();
      const e = env([rule('allow', 'npm test'), rule('deny', 'rm *')]);
      const broker = new PermissionBroker(ctx, e);
      broker.setLevel('ask');
      const p = broker.request(permissionRequest('t1', { kind: 'execute', rawInput: { command: 'npm test' } }), CancellationToken.None);
      const id = await parked(broker);
      assert.deepEqual(card(thread, 't1').permission?.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once'], 'no rule button');
      broker.respond(id, 'reject');
      await p;
      assert.deepEqual(await broker.request(permissionRequest('t2', { rawInput: { command: 'rm -rf build' } }), CancellationToken.None), { outcome: { outcome: 'selected', optionId: 'reject' } });
      assert.equal((await broker.rules.terminal(['npm', 'test'], ctx.cwd)).verdict, undefined, 'a command is not allowed by the rule either');
      assert.equal((await broker.rules.terminal(['rm', '-rf', 'x'], ctx.cwd)).verdict?.action, 'deny');
      assert.deepEqual(e.matched.map((r) => r.pattern), ['rm *'], 'only the deny rule matched');
    });

    it('asking for everything, a write or command no answer covers is asked about whatever uncoveredActions says', () => {
      const { ctx } = fakeSession();
      const broker = new PermissionBroker(ctx, Object.assign(env([]), { uncoveredPolicy: () => 'allow' as const }));
      assert.equal(broker.uncoveredPolicy(), 'allow');
      broker.setLevel('ask');
      assert.equal(broker.uncoveredPolicy(), 'ask');
    });

    it('Allow Everything, in a worktree of the session\'s own: any request without a rule is allowed once and says so; a deny rule still refuses; outside a worktree it is Allow Reads and Rules', async () => {
      const { ctx, thread } = fakeSession();
      let isolated = true;
      const e = Object.assign(env([rule('deny', 'rm *')]), { isolated: () => isolated, uncoveredPolicy: () => 'ask' as const });
      const broker = new PermissionBroker(ctx, e);
      broker.setLevel('all');
      assert.equal(broker.level, 'all');
      assert.deepEqual(await broker.request(permissionRequest('t1', { kind: 'execute', rawInput: { command: 'make deploy' } }), CancellationToken.None), { outcome: { outcome: 'selected', optionId: 'allow' } });
      assert.match(card(thread, 't1').permissionOutcome ?? '', /^Allowed \(Allow Everything, in the session's own worktree\)/);
      assert.deepEqual(await broker.request(permissionRequest('t2', { rawInput: { command: 'rm -rf build' } }), CancellationToken.None), { outcome: { outcome: 'selected', optionId: 'reject' } }, 'a deny rule answers first');
      assert.equal(broker.uncoveredPolicy(), 'allow', 'a write or command no answer covers runs');
      isolated = false;
      assert.equal(broker.level, 'reads', 'the same session outside a worktree');
      assert.equal(broker.uncoveredPolicy(), 'ask');
      const p = broker.request(permissionRequest('t3', { kind: 'execute', rawInput: { command: 'make deploy' } }), CancellationToken.None);
      const id = await parked(broker);
      broker.respond(id, 'reject');
      await p;
    });

    it('follows the settings until the user chooses one, and says when it changes', async () => {
      const root = path.resolve('/work/project');
      const { ctx } = fakeSession('s1', root);
      let settings: ApprovalLevel = 'rules';
      const broker = new PermissionBroker(ctx, Object.assign(env([]), { defaultLevel: () => settings }));
      const changes: string[] = [];
      broker.onDidChangeLevel(() => changes.push(broker.level));
      assert.equal(broker.level, 'rules');
      settings = 'reads';
      assert.equal(broker.level, 'reads', 'the settings, live');
      assert.equal(broker.chosenLevel, undefined);
      broker.setLevel('ask');
      settings = 'rules';
      assert.deepEqual([broker.level, broker.chosenLevel], ['ask', 'ask']);
      broker.setLevel('ask');
      broker.setLevel(undefined);
      assert.equal(broker.level, 'rules');
      assert.deepEqual(changes, ['ask', 'rules'], 'one event per change');
    });
  });
});
