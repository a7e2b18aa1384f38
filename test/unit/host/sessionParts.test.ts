/**
 * The parts of a session made from a list (src/host/sessionContext.ts, `SessionPartSet`): in the list's order, a
 * part another one needs made first, the hooks and the disposal in the list's order, and a part the list lacks
 * named in the error.
 */
import * as assert from 'node:assert/strict';
import { SessionPartSet, type SessionPart, type SessionSetup } from '../../../src/host/sessionContext';
import { fakeSession } from './permissionHelpers';

interface Options { readonly prefix: string }

/** A part that records what happens to it in `log`. */
function recorder(name: string, log: string[], needs?: () => SessionPart<{ dispose(): void }, never>): SessionPart<{ readonly name: string; dispose(): void }, Options> {
  return {
    name,
    create: (s: SessionSetup<Options>) => {
      if (needs) s.part(needs());
      log.push(`make ${s.options.prefix}${name}`);
      return { name, dispose: () => log.push(`dispose ${name}`) };
    },
    cancelRequests: (p) => log.push(`cancel ${p.name}`),
    rootsChanged: (p) => log.push(`roots ${p.name}`),
  };
}

function setup(tracked: { dispose(): void }[] = []) {
  return { context: fakeSession().ctx, options: { prefix: '' }, key: () => 'agent\u0000s1', track: (d: { dispose(): void }) => void tracked.push(d) };
}

describe('session parts', () => {
  it('are made in the order of the list, a needed one first, each once', () => {
    const log: string[] = [];
    const c = recorder('c', log);
    const a = recorder('a', log);
    const b = recorder('b', log, () => c);
    const parts = new SessionPartSet([a, b, c], setup());
    assert.deepEqual(log, ['make a', 'make c', 'make b']);
    assert.equal(parts.part(c).name, 'c');
    assert.equal(parts.part(b), parts.part(b), 'one part per session');
    assert.deepEqual(log, ['make a', 'make c', 'make b']);
  });

  it('run the hooks and are disposed in the order of the list, a part without a hook skipped', () => {
    const log: string[] = [];
    const plain: SessionPart<{ dispose(): void }> = { name: 'plain', create: () => ({ dispose: () => log.push('dispose plain') }) };
    const parts = new SessionPartSet<Options>([recorder('x', log), plain, recorder('y', log)], setup());
    log.length = 0;
    parts.each('cancelRequests');
    parts.each('rootsChanged');
    parts.each('agentExited');
    parts.dispose();
    assert.deepEqual(log, ['cancel x', 'cancel y', 'roots x', 'roots y', 'dispose x', 'dispose plain', 'dispose y']);
  });

  it('give a part the session\'s context, options, key and its subscriptions', () => {
    const tracked: { dispose(): void }[] = [];
    let seen: SessionSetup<Options> | undefined;
    const part: SessionPart<{ dispose(): void }, Options> = {
      name: 'probe',
      create: (s) => {
        seen = s;
        s.track({ dispose: () => undefined });
        return { dispose: () => undefined };
      },
    };
    const given = setup(tracked);
    new SessionPartSet([part], { ...given, options: { prefix: 'p-' } });
    assert.equal(seen?.context, given.context);
    assert.equal(seen?.options.prefix, 'p-');
    assert.equal(seen?.key(), 'agent\u0000s1');
    assert.equal(tracked.length, 1);
  });

  it('name a part the list lacks, and one that needs itself', () => {
    const log: string[] = [];
    const missing = recorder('missing', log);
    const parts = new SessionPartSet([recorder('a', log)], setup());
    assert.throws(() => parts.part(missing), /This session has no missing: list its part in sessionFeatures \(src\/host\/features\.ts\)/);
    const selfish: SessionPart<{ dispose(): void }> = { name: 'selfish', create: (s) => s.part(selfish) };
    assert.throws(() => new SessionPartSet([selfish], setup()), /The session's selfish needs itself to be made/);
  });
});
