/**
 * The typed errors' one guard (src/shared/typedError.ts): `is` and `is(ex, reason)` by brand, so an error thrown
 * by another bundle's copy of the class is recognised where `instanceof` is not.
 */
import * as assert from 'node:assert/strict';
import { typedError } from '../../../src/shared/typedError';

type Reason = 'a' | 'b';

/** One copy of a class, as each bundle that imports its module has one. */
function copyOfReasonError() {
  return class ReasonError extends typedError('TestReasonError') {
    constructor(readonly reason: Reason, message: string, options?: ErrorOptions) {
      super(message, options);
    }
  };
}

describe('typed errors', () => {
  const Here = copyOfReasonError();
  const There = copyOfReasonError();

  it('are Errors with their name, message and cause', () => {
    const cause = new Error('below');
    const e = new Here('a', 'what happened', { cause });
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'TestReasonError');
    assert.equal(e.message, 'what happened');
    assert.equal(e.cause, cause);
    assert.deepEqual(Object.keys(e).sort(), ['name', 'reason'], 'the brand is not enumerable');
  });

  it('are recognised by any copy of their class, with or without a reason', () => {
    const e = new There('b', 'from another bundle');
    assert.equal(e instanceof Here, false, 'instanceof fails across copies');
    assert.equal(Here.is(e), true);
    assert.equal(Here.is(e, 'b'), true);
    assert.equal(Here.is(e, 'a'), false);
    const ex: unknown = e;
    if (Here.is(ex, 'b')) assert.equal(ex.reason, 'b'); // narrowed: reason is known
    else assert.fail('not recognised');
  });

  it('tell other errors and values apart', () => {
    class Other extends typedError('TestOtherError') {}
    const plain = Object.assign(new Error('x'), { name: 'TestReasonError', reason: 'a' });
    for (const v of [new Other('y'), plain, undefined, null, 'TestReasonError', { reason: 'a' }]) assert.equal(Here.is(v), false, String(v));
    assert.equal(Other.is(new Other('y')), true);
    assert.equal(Other.is(new Here('a', 'z')), false);
  });
});
