import * as assert from 'node:assert/strict';
import { nextCreatedAt, rowTitle, untitledTitle } from '../../../src/shared/sessionTitles';
import { untitledSession } from '../../../src/shared/viewModel';
import { promptTopic } from '../../../src/demoAgent/templates';
import { ThreadTitle } from '../../../src/thread/model/threadTitle';

// issue 26: sessions that look alike. An untitled session is named by its agent and the local time it was
// created (to the second); the Demo agent names a chat after its first prompt.

describe('shared / untitled session titles', () => {
  const at = new Date(2025, 0, 2, 9, 5, 7).getTime(); // local time

  it('names an untitled session by its agent and its local creation time', () => {
    assert.equal(untitledTitle('Demo agent', at), 'Demo agent · 09:05:07');
    assert.notEqual(untitledTitle('Demo agent', at), untitledTitle('Demo agent', at + 1000), 'sessions a second apart differ');
    assert.equal(untitledTitle('Demo agent', undefined), untitledSession, 'no time known: the usual name');
  });

  it('new sessions started in the same second still get different names', () => {
    const second = nextCreatedAt(at + 200, at);
    assert.equal(second, at + 1000);
    assert.equal(nextCreatedAt(at + 300, second), at + 2000);
    assert.equal(nextCreatedAt(at + 5000, at + 2000), at + 5000, 'later ones keep their own time');
    assert.equal(nextCreatedAt(at, 0), at);
  });

  it('a row shows its title, else its untitled name', () => {
    assert.equal(rowTitle({ title: 'Fix the build', agentName: 'Demo agent', createdAt: at }), 'Fix the build');
    assert.equal(rowTitle({ title: '  ', agentName: 'Demo agent', createdAt: at }), 'Demo agent · 09:05:07');
    assert.equal(rowTitle({ title: '', agentName: 'Demo agent' }), untitledSession);
    assert.equal(rowTitle({ title: '' }), untitledSession);
    assert.equal(rowTitle({ title: '', untitledName: 'Fields Agent · 09:05:07', agentName: 'fields-agent', createdAt: at }), 'Fields Agent · 09:05:07', 'an open session: what its tab shows');
  });

  it('a thread shows its untitled name until it has a title, and keeps it empty for the prompt to name it', () => {
    const t = new ThreadTitle();
    assert.equal(t.shown, untitledSession);
    t.setOrigin('Demo agent', at);
    assert.equal(t.shown, 'Demo agent · 09:05:07');
    assert.equal(t.value, '', 'the title itself stays empty');
    assert.ok(t.fromPrompt([{ type: 'text', text: 'add dark mode' }]));
    assert.equal(t.shown, 'add dark mode');
    assert.equal(t.createdAt, at);
  });

  it('the Demo agent names a chat after its first prompt, short', () => {
    assert.equal(promptTopic('hello'), 'Hello');
    assert.equal(promptTopic('  explain   this\nsecond line'), 'Explain this');
    assert.equal(promptTopic('please refactor the session manager so that it is easier to test'), 'Please refactor the session manager so…');
    assert.equal(promptTopic(''), '');
  });
});
