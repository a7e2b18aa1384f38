/**
 * A session in a git worktree of its own (docs/worktrees.md), in the real extension host with real git: the worktree
 * is made from the workspace's commit, the session's cwd is the worktree and its only root (no additional
 * directories), the branch is named after the first prompt, Allow Everything is a level there and nowhere else, and
 * Archive / Unarchive Session commit and remove the folder, then bring it back.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, setSetting, useScriptedAgent, workspaceRoot } from './helpers';

describe('a session in a worktree of its own', function () {
  this.timeout(90000);
  let sb: SwitchboardTestApi;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
  before(async () => {
    sb = await api();
    const root = workspaceRoot();
    git(root, '-c', 'init.defaultBranch=main', 'init', '-q');
    git(root, 'config', 'user.name', 'Tester');
    git(root, 'config', 'user.email', 'tester@example.invalid');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'base');
    await setSetting('additionalDirectories', [fs.realpathSync(path.dirname(root))]);
  });
  after(async () => {
    await sb.stopAll();
    await setSetting('additionalDirectories', undefined);
    fs.rmSync(path.join(workspaceRoot(), '.git'), { recursive: true, force: true });
  });

  it('runs in the worktree, which is its only root; the branch is named after the first prompt', async () => {
    const id = await sb.newSessionInWorktree(await useScriptedAgent('rootsEcho'));
    const wt = sb.worktreeOf(id);
    assert.ok(wt, 'the session has a worktree');
    assert.equal(wt.baseBranch, 'main');
    assert.ok(!wt.path.startsWith(workspaceRoot()), `outside the workspace: ${wt.path}`);
    assert.equal(git(wt.path, 'rev-parse', 'HEAD'), git(workspaceRoot(), 'rev-parse', 'HEAD'), 'from the commit checked out');
    assert.deepEqual(sb.snapshot(id)?.state.roots, [wt.path], 'cwd only: not the workspace, not the setting\'s folder');
    await sb.prompt(id, 'which roots?');
    assert.equal(agentText(sb, id).trim(), 'roots: absent', 'no additional directory is sent');
    for (let i = 0; i < 40 && sb.worktreeOf(id)?.branch === wt.branch; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(sb.worktreeOf(id)?.branch, 'switchboard/which-roots', 'renamed after the first prompt');
    assert.equal(git(wt.path, 'branch', '--show-current'), 'switchboard/which-roots');
  });

  it('offers Allow Everything in a worktree only; outside one it is Allow Reads and Rules', async () => {
    const inWorktree = sb.session(await sb.newSessionInWorktree(await useScriptedAgent('rootsEcho')));
    const plain = sb.session(await sb.newSession(await useScriptedAgent('rootsEcho')));
    assert.ok(inWorktree && plain);
    assert.equal(inWorktree.permissions.isolated, true);
    assert.equal(plain.permissions.isolated, false);
    inWorktree.permissions.setLevel('all');
    plain.permissions.setLevel('all');
    assert.equal(inWorktree.permissions.level, 'all');
    assert.equal(inWorktree.permissions.uncoveredPolicy(), 'allow');
    assert.equal(plain.permissions.level, 'reads');
  });

  it('Archive Session commits the worktree and removes its folder; Unarchive brings it back', async () => {
    const id = await sb.newSessionInWorktree(await useScriptedAgent('rootsEcho'));
    const s = sb.session(id);
    const wt = sb.worktreeOf(id);
    assert.ok(s && wt);
    fs.writeFileSync(path.join(wt.path, 'work.txt'), 'not committed yet\n');
    const agentId = s.host.definition.id;
    await sb.archiveSession(agentId, id);
    for (let i = 0; i < 40 && fs.existsSync(wt.path); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.existsSync(wt.path), false, 'the folder is removed');
    assert.equal(git(workspaceRoot(), 'show', `${wt.branch}:work.txt`), 'not committed yet', 'its state is committed to the branch');
    await sb.unarchiveSession(agentId, id);
    for (let i = 0; i < 40 && !fs.existsSync(wt.path); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.readFileSync(path.join(wt.path, 'work.txt'), 'utf8'), 'not committed yet\n', 'the worktree is back, on its branch');
    assert.equal(git(workspaceRoot(), 'status', '--porcelain'), '', 'the workspace is untouched');
  });
});
