import * as assert from 'node:assert/strict';
import { chatTarget, parseOpenIn } from '../../../src/chatHost/chatPlacement';

describe('chat placement (src/chatHost/chatPlacement)', () => {
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
});
