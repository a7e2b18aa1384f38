import * as assert from 'node:assert/strict';
import { CopyCodeCommand, InsertCodeCommand, OpenLinkCommand } from '../../../src/shared/chatProtocol';
import { parseParams } from '../../../src/chatHost/ipcSchemas';

describe('chat link and code commands: validation (src/chatHost/ipcSchemas)', () => {
  it('accepts well-formed link and code commands', () => {
    assert.deepEqual(parseParams(OpenLinkCommand.method, { href: 'https://example.com' }), { ok: true, params: { href: 'https://example.com' } });
    assert.equal(parseParams(CopyCodeCommand.method, { code: 'x', language: 'ts' }).ok, true);
    assert.equal(parseParams(InsertCodeCommand.method, { code: '' }).ok, true);
  });

  it('rejects missing, oversized, wrongly typed or extra fields', () => {
    for (const params of [{}, { href: '' }, { href: 'x'.repeat(9000) }, { href: 1 }, { href: 'a', extra: true }]) {
      assert.equal(parseParams(OpenLinkCommand.method, params).ok, false, JSON.stringify(params).slice(0, 60));
    }
    assert.equal(parseParams(InsertCodeCommand.method, { code: 'x', language: 'l'.repeat(65) }).ok, false);
    assert.equal(parseParams(CopyCodeCommand.method, { code: 7 }).ok, false);
  });
});
