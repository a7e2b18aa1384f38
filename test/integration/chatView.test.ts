import * as assert from 'node:assert/strict';
import type { SwitchboardTestApi } from '../../src/api';
import { agentText, api, setSetting, until, useScriptedAgent } from './helpers';

describe('the Chat view in the secondary side bar (switchboard.chat.openIn)', function () {
  this.timeout(60000);
  let sb: SwitchboardTestApi;
  before(async () => { sb = await api(); });
  afterEach(async () => {
    for (const id of sb.sessionIds()) sb.closeSession(id);
    await setSetting('chat.openIn', undefined);
  });

  it('opens new sessions where the setting says, and a session with a chat where its chat is', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const inTab = await sb.newSession(agent, { chat: true });
    assert.equal(sb.chatLocation(inTab), 'tab', 'the default is an editor tab');
    await setSetting('chat.openIn', 'sideBar');
    const inView = await sb.newSession(agent, { chat: true });
    assert.equal(sb.chatLocation(inView), 'view', 'with sideBar, a new session opens in the Chat view');
    await sb.openSession(agent, inTab);
    assert.equal(sb.chatLocation(inTab), 'tab', 'reopening a session that has a tab focuses the tab');
    assert.equal(sb.chatLocation(inView), 'view', 'and leaves the view alone');
  });

  it('moves a session from its tab to the view, keeps it open, and both never show one session', async () => {
    const agent = await useScriptedAgent('historyPaging');
    const a = await sb.newSession(agent, { chat: true });
    const b = await sb.newSession(agent, { chat: true });
    sb.showInChatView(a);
    assert.equal(sb.chatLocation(a), 'view');
    assert.ok(sb.sessionIds().includes(a), 'moving out of the tab did not close the session');
    await sb.prompt(a, 'go');
    assert.match(agentText(sb, a), /end-of-paged-\d+/, 'the moved session still answers');
    sb.showInChatView(b);
    assert.equal(sb.chatLocation(b), 'view');
    assert.equal(sb.chatLocation(a), undefined, 'the previous session has no chat now');
    assert.ok(sb.sessionIds().includes(a), 'but stays open (Switch Session lists it)');
  });

  it('Close Session on the view\'s session closes it and empties the view', async () => {
    await setSetting('chat.openIn', 'sideBar');
    const agent = await useScriptedAgent('historyPaging');
    const id = await sb.newSession(agent, { chat: true });
    assert.equal(sb.chatLocation(id), 'view');
    sb.closeSession(id);
    await until(() => !sb.sessionIds().includes(id), 'the session closed');
    assert.equal(sb.chatLocation(id), undefined);
  });
});
