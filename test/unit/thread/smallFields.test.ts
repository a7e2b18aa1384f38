/**
 * Small fields of the 2.4.0 schema the chat used to drop: a tool call's programmatic `name`, and a current
 * mode the agent did not list.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView, stateToView } from '../../../src/thread/view/toView';
import { header } from '../helpers/header';

describe('small fields of the current schema', () => {
  it("keeps a tool call's name from tool_call, through updates without one, and shows it in the view", () => {
    const t = new AcpThread('s1');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run the tests', name: 'Bash', kind: 'execute' } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' } as SessionUpdate);
    const view = entryToView(t.entries[0]);
    assert.equal(view.kind === 'toolCall' ? view.toolName : undefined, 'Bash');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'Read' } as SessionUpdate);
    const unnamed = entryToView(t.entries[1]);
    assert.equal(unnamed.kind === 'toolCall' && 'toolName' in unnamed, false, 'no label without a name');
  });

  it('shows a current mode the agent did not list as its id, not as a blank picker', () => {
    const t = new AcpThread('s1');
    t.setSessionSetup({ modes: { currentModeId: 'secret-mode', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] } });
    const modes = stateToView(t, header('Agent')).modes;
    assert.equal(modes?.currentModeId, 'secret-mode');
    assert.deepEqual(modes?.available.map((m) => [m.value, m.name]), [['ask', 'Ask'], ['code', 'Code'], ['secret-mode', 'secret-mode']]);
    t.handleSessionUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'code' } as SessionUpdate);
    assert.deepEqual(stateToView(t, header('Agent')).modes?.available.map((m) => m.value), ['ask', 'code'], 'a listed mode adds nothing');
  });
});
