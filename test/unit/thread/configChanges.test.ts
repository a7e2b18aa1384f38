import * as assert from 'node:assert/strict';
import type { SessionConfigOption } from '../../../src/acp/schema/types.gen';
import { ConfigChanges, withPendingValues } from '../../../src/thread/model/configChanges';
import { AcpThread } from '../../../src/thread/model/thread';

const model = (v: string): SessionConfigOption => ({ type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: v, options: [{ value: 'fast-1', name: 'Fast' }, { value: 'smart-1', name: 'Smart' }] });
const web = (v: boolean): SessionConfigOption => ({ type: 'boolean', id: 'web', name: 'Web search', currentValue: v });
const values = (t: AcpThread) => Object.fromEntries(t.configOptions.map((o) => [o.id, o.currentValue]));

describe('config option changes in flight (src/thread/configChanges)', () => {
  function setup() {
    const t = new AcpThread('s1', { info: () => undefined });
    t.setConfigOptions([model('fast-1'), web(false)]);
    const shown: Record<string, unknown>[] = [];
    t.onDidChange((c) => { if (c.type === 'config') shown.push(values(t)); });
    return { t, shown, changes: new ConfigChanges(t) };
  }

  it('shows a chosen value at once, and keeps it while an earlier answer with the older state arrives', () => {
    const { t, shown, changes } = setup();
    changes.begin('model', 'smart-1');
    changes.begin('web', true);
    // the model's answer was made before the agent saw the web change: web is still false in it
    changes.end('model', [model('smart-1'), web(false)]);
    assert.deepEqual(values(t), { model: 'smart-1', web: true }, 'the ticked box does not flip back');
    changes.end('web', [model('smart-1'), web(true)]);
    assert.deepEqual(values(t), { model: 'smart-1', web: true });
    assert.deepEqual(shown.slice(1).map((s) => s.web), shown.slice(1).map(() => true), `web never went back to false once chosen: ${JSON.stringify(shown)}`);
  });

  it('a failed change shows the agent\'s value again, also when another answer came in between', () => {
    const { t, changes } = setup();
    changes.begin('web', true);
    changes.begin('model', 'smart-1');
    changes.end('model', [model('smart-1'), web(false)]);
    changes.end('web', undefined);
    assert.deepEqual(values(t), { model: 'smart-1', web: false });
  });

  it('a config_option_update in flight is taken with the changes laid over it; without changes the thread applies it', () => {
    const { t, changes } = setup();
    assert.equal(changes.agentUpdate([model('fast-1'), web(false)]), false, 'nothing in flight: the thread handles it');
    changes.begin('web', true);
    assert.equal(changes.agentUpdate([model('smart-1'), web(false)]), true);
    assert.deepEqual(values(t), { model: 'smart-1', web: true });
    changes.end('web', undefined);
    assert.deepEqual(values(t), { model: 'smart-1', web: false }, 'the failure falls back to the agent\'s latest set, not the one before the change');
  });

  it('lays over only values of the option\'s own type', () => {
    const out = withPendingValues([model('fast-1'), web(false)], new Map<string, string | boolean>([['model', true], ['web', true], ['other', 'x']]));
    assert.deepEqual(out.map((o) => o.currentValue), ['fast-1', true]);
  });
});
