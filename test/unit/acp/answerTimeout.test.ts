import * as assert from 'node:assert/strict';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { withAnswerTimeout } from '../../../src/acp/answerTimeout';
import { AcpError } from '../../../src/acp/errors';

describe('withAnswerTimeout', () => {
  it('an answer in time passes through, and its token never fires', async () => {
    let token: CancellationToken | undefined;
    const value = await withAnswerTimeout('m', 1000, (t) => { token = t; return Promise.resolve(42); });
    assert.equal(value, 42);
    assert.equal(token?.isCancellationRequested, false);
  });

  it('no answer: the request is cancelled and the caller gets an error that says what did not answer', async () => {
    let token: CancellationToken | undefined;
    const never = new Promise<number>(() => undefined);
    const error = await withAnswerTimeout('session/set_mode', 20, (t) => { token = t; return never; }).then(() => undefined, (e: unknown) => e);
    assert.ok(AcpError.is(error, 'cancelled'), String(error));
    assert.equal(error.message, "The agent did not answer 'session/set_mode' within 0.02 s.");
    assert.equal(token?.isCancellationRequested, true, '$/cancel_request is sent through the token');
  });

  it('an error answer rejects with that error', async () => {
    await assert.rejects(withAnswerTimeout('m', 1000, () => Promise.reject(new Error('agent said no'))), /agent said no/);
  });
});
