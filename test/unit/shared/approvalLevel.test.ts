import * as assert from 'node:assert/strict';
import { allowRulesApply, approvalLevels, effectiveLevel, isApprovalLevel, levelsFor, levelView, readsApproved, settingsLevel } from '../../../src/shared/approvalLevel';

describe('approval levels', () => {
  it('each level allows what the one before it allows', () => {
    const allows = approvalLevels.map((l) => [allowRulesApply(l), readsApproved(l), l === 'all'].filter(Boolean).length);
    assert.deepEqual(allows, [0, 1, 2, 3]);
  });

  it('a new session\'s level comes from the level setting, else the older autoApprove, else rules', () => {
    assert.equal(settingsLevel('ask', 'reads'), 'ask', 'the level setting wins');
    assert.equal(settingsLevel(undefined, 'reads'), 'reads');
    assert.equal(settingsLevel(undefined, 'never'), 'rules', 'never was always-ask of the agent\'s requests, with the rules');
    assert.equal(settingsLevel(undefined, undefined), 'rules');
    assert.equal(settingsLevel('everything', 'never'), 'rules', 'an unknown value is never a looser level');
    assert.equal(settingsLevel(42, 'reads'), 'reads');
    assert.equal(settingsLevel('all', undefined), 'rules', 'the settings cannot make Allow Everything the default');
  });

  it('Allow Everything exists only in a worktree of the session\'s own', () => {
    assert.deepEqual(levelsFor(false), ['ask', 'rules', 'reads']);
    assert.deepEqual(levelsFor(true), ['ask', 'rules', 'reads', 'all']);
    assert.equal(effectiveLevel('all', false), 'reads', 'outside a worktree it is Allow Reads and Rules');
    assert.equal(effectiveLevel('all', true), 'all');
    assert.equal(effectiveLevel('ask', true), 'ask');
  });

  it('knows its values and says what each one does', () => {
    assert.equal(isApprovalLevel('reads'), true);
    assert.equal(isApprovalLevel('all'), true);
    assert.equal(isApprovalLevel('everything'), false);
    assert.equal(isApprovalLevel(undefined), false);
    assert.deepEqual(levelView('ask'), { label: 'Ask all', icon: 'shield', title: 'Approvals: Ask for Everything. Every request gets a card; only your deny rules answer by themselves. Click to change.' });
  });
});
