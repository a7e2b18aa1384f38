import * as assert from 'node:assert/strict';
import { CopyCodeCommand, InsertCodeCommand, OpenLinkCommand } from '../../../src/shared/chatProtocol';
import { parseWebviewMessage } from '../../../src/webviews/chat/ipcSchemas';

describe('chat link and code commands: validation (src/webviews/chat/ipcSchemas)', () => {
  it('accepts well-formed link and code commands', () => {
    assert.deepEqual(parseWebviewMessage({ method: OpenLinkCommand.method, params: { href: 'https://example.com' } }), { ok: true, method: OpenLinkCommand.method, params: { href: 'https://example.com' } });
    assert.equal(parseWebviewMessage({ method: CopyCodeCommand.method, params: { code: 'x', language: 'ts' } }).ok, true);
    assert.equal(parseWebviewMessage({ method: InsertCodeCommand.method, params: { code: '' } }).ok, true);
  });

  it('rejects missing, oversized, wrongly typed or extra fields', () => {
    for (const params of [{}, { href: '' }, { href: 'x'.repeat(9000) }, { href: 1 }, { href: 'a', extra: true }]) {
      assert.equal(parseWebviewMessage({ method: OpenLinkCommand.method, params }).ok, false, JSON.stringify(params).slice(0, 60));
    }
    assert.equal(parseWebviewMessage({ method: InsertCodeCommand.method, params: { code: 'x', language: 'l'.repeat(65) } }).ok, false);
    assert.equal(parseWebviewMessage({ method: CopyCodeCommand.method, params: { code: 7 } }).ok, false);
  });
});
