import * as assert from 'node:assert/strict';
import { relativeTime } from '../../../src/shared/welcomeModel';
import { capabilityBadges, recentSessions, welcomeView } from '../../../src/thread/view/welcomeView';
import { welcomeKeyHints } from '../../../webview/lib/welcomeKeys';

const row = (agentId: string, sessionId: string, title: string, updatedAt?: number) => ({ agentId, sessionId, title, updatedAt });

describe('welcome view data (src/thread/welcomeView)', () => {
  it('says what the agent can do in plain words, from its capabilities and the client\'s', () => {
    const badges = capabilityBadges(
      { loadSession: true, promptCapabilities: { image: true, audio: false, embeddedContext: true }, mcpCapabilities: { http: true, sse: false }, sessionCapabilities: { list: {} } },
      { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    );
    assert.deepEqual(badges.map((b) => b.label), ['Images', 'File contents', 'Reopens sessions', 'Lists sessions', 'MCP', 'Editor files', 'Terminal']);
    assert.match(badges.find((b) => b.id === 'mcp')?.title ?? '', /stdio, HTTP\)/);
    assert.ok(badges.every((b) => b.icon && b.title && !b.label.includes('{')), 'words and an icon, not JSON');
  });

  it('an agent with no capabilities still takes stdio MCP servers; resume alone counts as reopening', () => {
    assert.deepEqual(capabilityBadges({}, {}).map((b) => b.id), ['mcp']);
    assert.deepEqual(capabilityBadges(undefined, undefined).map((b) => b.id), ['mcp']);
    assert.ok(capabilityBadges({ sessionCapabilities: { resume: {} } }, {}).some((b) => b.id === 'reopen'));
  });

  it('an ACP v2 agent gets a v2 badge and none of the client\'s fs and terminal badges (it runs its own)', () => {
    const client = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
    assert.deepEqual(capabilityBadges({ loadSession: true }, client, 2).map((b) => b.id), ['reopen', 'mcp', 'v2']);
    assert.deepEqual(capabilityBadges({ loadSession: true }, client).map((b) => b.id), ['reopen', 'mcp', 'fs', 'terminal']);
  });

  it('says that the agent forks sessions when it advertises session/fork', () => {
    assert.deepEqual(capabilityBadges({ sessionCapabilities: { list: {}, fork: {} } }, {}).map((b) => b.label), ['Lists sessions', 'Forks sessions', 'MCP']);
  });

  it('lists at most five recent sessions of the same agent, newest first, never the chat\'s own', () => {
    const rows = [
      row('a', 's1', 'one', 1000), row('b', 'x', 'other agent', 9000), row('a', 'own', 'this chat', 9999),
      row('a', 's2', '', 5000), row('a', 's3', 'three', 3000), row('a', 's4', 'four', 4000), row('a', 's5', 'five', undefined),
      row('a', 's6', 'six', 6000), row('a', 's7', 'seven', 2000),
    ];
    const recent = recentSessions(rows, 'a', 'own');
    assert.deepEqual(recent.map((r) => r.sessionId), ['s6', 's2', 's4', 's3', 's7']);
    assert.equal(recent[1].title, 'New session', 'an untitled session has the usual name');
    const view = welcomeView({ agentId: 'a', agentName: 'Agent A', sessionId: 'own', agent: {}, client: {}, history: rows });
    assert.equal(view.agentName, 'Agent A');
    assert.equal(view.recent.length, 5);
  });

  it('relative times read like the Sessions view', () => {
    const now = Date.UTC(2026, 0, 10);
    assert.equal(relativeTime(now - 10_000, now), 'just now');
    assert.equal(relativeTime(now - 5 * 60_000, now), '5 min ago');
    assert.equal(relativeTime(now - 3 * 3_600_000, now), '3 h ago');
    assert.equal(relativeTime(now - 2 * 86_400_000, now), '2 days ago');
    assert.equal(relativeTime(undefined, now), '');
  });

  it('key hints follow the send key and the platform', () => {
    const enter = welcomeKeyHints('enter', false);
    assert.deepEqual(enter.slice(0, 2), [{ key: 'Enter', does: 'send' }, { key: 'Shift+Enter', does: 'new line' }]);
    for (const does of ['commands', 'files', 'stop the turn', 'switch session']) assert.ok(enter.some((k) => k.does === does), does);
    assert.equal(enter.find((k) => k.does === 'switch session')?.key, 'Ctrl+Alt+Shift+S');
    const mac = welcomeKeyHints('ctrlEnter', true);
    assert.deepEqual(mac.slice(0, 2), [{ key: 'Cmd+Enter', does: 'send' }, { key: 'Enter', does: 'new line' }]);
    assert.equal(mac.find((k) => k.does === 'switch session')?.key, 'Cmd+Alt+Shift+S');
  });
});
