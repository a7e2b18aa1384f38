import * as assert from 'node:assert/strict';
import { chatTarget, lacksSecondarySidebar, parseOpenIn } from '../../../src/webviews/chat/chatPlacement';

describe('chat placement (src/webviews/chat/chatPlacement)', () => {
  it('opens a session without a chat where the setting says', () => {
    assert.equal(chatTarget({ hasTab: false, inView: false, openIn: 'editor' }), 'tab');
    assert.equal(chatTarget({ hasTab: false, inView: false, openIn: 'sideBar' }), 'view');
  });

  it('focuses the chat a session already has, whatever the setting', () => {
    assert.equal(chatTarget({ hasTab: true, inView: false, openIn: 'sideBar' }), 'tab');
    assert.equal(chatTarget({ hasTab: false, inView: true, openIn: 'editor' }), 'view');
  });

  it('reads an unknown or missing setting as editor', () => {
    assert.equal(parseOpenIn('sideBar'), 'sideBar');
    assert.equal(parseOpenIn('editor'), 'editor');
    assert.equal(parseOpenIn('panel'), 'editor');
    assert.equal(parseOpenIn(undefined), 'editor');
    assert.equal(parseOpenIn(1), 'editor');
  });

  it('knows which VS Code versions cannot contribute to the secondary side bar (1.106 added it)', () => {
    const cases: [string, boolean][] = [
      ['1.100.3', true], ['1.105.9', true], ['0.99.0', true],
      ['1.106.0', false], ['1.139.1', false], ['2.0.0', false], ['1.106.0-insider', false], ['unknown', false],
    ];
    for (const [version, lacks] of cases) assert.equal(lacksSecondarySidebar(version), lacks, version);
  });
});
