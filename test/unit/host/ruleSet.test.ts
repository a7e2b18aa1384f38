import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeRule, pathCandidates, RuleSet, ruleKey } from '../../../src/host/permissions/rules/ruleSet';
import type { Rule } from '../../../src/host/permissions/rules/ruleSet';
import { isEntryOf, readRules, toEntry } from '../../../src/host/permissions/rules/ruleSettings';

const root = path.resolve('/work/project');
const rule = (r: Partial<Rule> & Pick<Rule, 'kind' | 'pattern'>): Rule => ({ action: 'allow', scope: 'user', ...r });

describe('RuleSet: path, MCP tool and host rules', () => {
  it('matches write globs relative to a session folder, or absolute, and deny wins over allow', () => {
    const set = new RuleSet([rule({ kind: 'write', pattern: 'src/**' }), rule({ kind: 'write', pattern: '**/.env', action: 'deny', scope: 'workspace' })], [root], true);
    assert.equal(set.path('write', path.join(root, 'src/a/b.ts'))?.action, 'allow');
    assert.equal(set.path('write', path.join(root, 'src/.env'))?.action, 'deny');
    assert.equal(set.path('write', path.join(root, 'README.md')), undefined);
    assert.equal(set.path('read', path.join(root, 'src/a.ts')), undefined, 'a write rule is not a read rule');
    // outside every folder, a relative glob matches nothing
    assert.equal(set.path('write', path.resolve('/elsewhere/src/a.ts')), undefined);
    const abs = new RuleSet([rule({ kind: 'write', pattern: '/tmp/out/**' })], [root], true);
    assert.equal(abs.path('write', path.resolve('/tmp/out/x.log'))?.action, process.platform === 'win32' ? undefined : 'allow');
  });

  it('expands ~/ in path globs, and a dot file matches `**`', () => {
    const set = new RuleSet([rule({ kind: 'read', pattern: '~/notes/**' })], [root], true);
    assert.equal(set.path('read', path.join(os.homedir(), 'notes', '.hidden', 'a.md'))?.action, 'allow');
  });

  it('ask wins over allow, deny over ask, whatever the scope', () => {
    const set = new RuleSet([
      rule({ kind: 'host', pattern: '*.github.com', scope: 'user' }),
      rule({ kind: 'host', pattern: 'api.github.com', action: 'ask', scope: 'session' }),
      rule({ kind: 'host', pattern: 'evil.github.com', action: 'deny', scope: 'workspace' }),
    ], [root], true);
    assert.equal(set.host('raw.github.com')?.action, 'allow');
    assert.equal(set.host('API.GitHub.com.')?.action, 'ask', 'hosts compare case-insensitively, a trailing dot aside');
    assert.equal(set.host('evil.github.com')?.action, 'deny');
    assert.equal(set.host('github.com.evil.net'), undefined);
  });

  it('matches MCP tools as server/tool globs', () => {
    const set = new RuleSet([rule({ kind: 'mcpTool', pattern: 'github/*' }), rule({ kind: 'mcpTool', pattern: 'github/delete_*', action: 'deny' })], [root], true);
    assert.equal(set.mcpTool('github/create_issue')?.action, 'allow');
    assert.equal(set.mcpTool('github/delete_repo')?.action, 'deny');
    assert.equal(set.mcpTool('gitlab/create_issue'), undefined);
  });

  it('a workspace allow rule applies only in a trusted workspace; its deny rules always apply', () => {
    const rules = [rule({ kind: 'write', pattern: '**', scope: 'workspace' }), rule({ kind: 'write', pattern: 'secret/**', action: 'deny', scope: 'workspace' }), rule({ kind: 'write', pattern: 'docs/**', scope: 'user' })];
    const untrusted = new RuleSet(rules, [root], false);
    assert.equal(untrusted.path('write', path.join(root, 'src/a.ts')), undefined);
    assert.equal(untrusted.path('write', path.join(root, 'secret/k'))?.action, 'deny');
    assert.equal(untrusted.path('write', path.join(root, 'docs/a.md'))?.action, 'allow', "the user's own rules apply");
    assert.deepEqual(untrusted.inactive.map((i) => i.rule.pattern), ['**']);
    assert.equal(new RuleSet(rules, [root], true).path('write', path.join(root, 'src/a.ts'))?.action, 'allow');
  });

  it('names rules for cards and keys them for counts', () => {
    assert.equal(describeRule(rule({ kind: 'command', pattern: 'npm test', scope: 'workspace' })), 'the workspace rule `npm test`');
    assert.equal(describeRule(rule({ kind: 'write', pattern: 'a`b' })), 'the user write rule `` a`b ``');
    assert.notEqual(ruleKey(rule({ kind: 'write', pattern: 'x' })), ruleKey(rule({ kind: 'read', pattern: 'x' })));
  });

  it('lists a path relative to each folder it is inside', () => {
    assert.deepEqual(pathCandidates(path.join(root, 'a/b.ts'), [root, path.resolve('/other')]).slice(1), ['a/b.ts']);
  });
});

describe('switchboard.permissions.rules: the setting', () => {
  it('reads rules with one subject each, and reports the entries that are not rules', () => {
    const read = readRules([
      { action: 'allow', command: 'npm test *' },
      { action: 'deny', write: '**/.env' },
      { action: 'allow' },
      { action: 'allow', command: 'ls', write: 'x' },
      { action: 'maybe', host: 'x' },
      { action: 'allow', command: 'ls', extra: 1 },
      'npm test',
    ], 'workspace');
    assert.deepEqual(read.rules, [
      { action: 'allow', kind: 'command', pattern: 'npm test *', scope: 'workspace' },
      { action: 'deny', kind: 'write', pattern: '**/.env', scope: 'workspace' },
    ]);
    assert.equal(read.errors.length, 5);
    assert.match(read.errors[0], /rule 3: needs exactly one of command/);
    assert.deepEqual(readRules({ action: 'allow' }, 'user').errors, ['switchboard.permissions.rules is not a list']);
    assert.deepEqual(readRules(undefined, 'user'), { rules: [], errors: [] });
  });

  it('writes a rule back as the entry it was read from', () => {
    const r = rule({ kind: 'mcpTool', pattern: 'github/*', action: 'deny' });
    assert.deepEqual(toEntry(r), { action: 'deny', mcpTool: 'github/*' });
    assert.ok(isEntryOf({ action: 'deny', mcpTool: 'github/*' }, r));
    assert.ok(!isEntryOf({ action: 'allow', mcpTool: 'github/*' }, r));
    assert.ok(!isEntryOf({ action: 'deny', host: 'github/*' }, r));
  });
});
