import * as assert from 'node:assert/strict';
import * as protocol from '../../../src/shared/chatProtocol';
import type { MethodName } from '../../../src/shared/chatProtocol';

const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

describe('chat protocol: one naming scheme for every message (src/shared/chatProtocol)', () => {
  const messages = Object.entries(protocol).flatMap(([name, value]) => {
    const kind = /(Command|Notification)$/.exec(name)?.[1];
    return kind && typeof value === 'object' && 'method' in value ? [{ name, kind, method: value.method }] : [];
  });

  it('names each method chat/<noun>/<verb> and each definition <Verb><Noun>Command or Did<Verb><Noun>Notification', () => {
    assert.ok(messages.length > 40, `${messages.length} messages found`);
    for (const { name, kind, method } of messages) {
      const [scope, noun = '', verb = '', ...rest] = method.split('/');
      assert.equal(scope, 'chat', method);
      assert.deepEqual(rest, [], `${method}: one noun and one verb`);
      assert.match(noun, /^[a-z][a-zA-Z]*$/, method);
      assert.match(verb, /^[a-z][a-zA-Z]*$/, method);
      assert.equal(/^did[A-Z]/.test(verb), kind === 'Notification', `${method}: a notification's verb, and only a notification's, is did…`);
      assert.equal(name, `${capitalized(verb)}${capitalized(noun)}${kind}`, `${method} is defined as ${name}`);
    }
  });

  it('gives every method its own name', () => {
    const methods = messages.map((m) => m.method);
    assert.deepEqual(methods.filter((m, i) => methods.indexOf(m) !== i), []);
  });

  it('rejects a name outside the scheme at compile time', () => {
    const fits: [MethodName<'prompt/send', 'command'>, MethodName<'thread/didChange', 'notification'>] = ['prompt/send', 'thread/didChange'];
    // @ts-expect-error the scope twice, and a verb that is no verb
    const scopeTwice: MethodName<'chat/focusRequest', 'notification'> = 'chat/focusRequest';
    // @ts-expect-error a command does not say what did happen
    const didCommand: MethodName<'thread/didChange', 'command'> = 'thread/didChange';
    // @ts-expect-error a notification says what did happen
    const imperative: MethodName<'prompt/send', 'notification'> = 'prompt/send';
    // @ts-expect-error one noun, one verb
    const nested: MethodName<'thread/entries/request', 'command'> = 'thread/entries/request';
    assert.ok(fits && scopeTwice && didCommand && imperative && nested);
  });
});
