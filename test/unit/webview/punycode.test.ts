import * as assert from 'node:assert/strict';
import punycode, { toASCII, toUnicode } from '../../../webview/lib/punycode';

// webview/lib/punycode.ts stands in for punycode.js in the webview bundle (esbuild.mjs alias)
describe('link hosts in the webview (webview/lib/punycode)', () => {
  it('converts a Unicode host to its ASCII form, as punycode.js does', () => {
    assert.equal(toASCII('пример.рф'), 'xn--e1afmkfd.xn--p1ai');
    assert.equal(toASCII('bücher.example'), 'xn--bcher-kva.example');
    assert.equal(toASCII('example.com'), 'example.com');
    assert.throws(() => toASCII('bad host'), 'markdown-it keeps the host when this throws');
  });

  it('shows an xn-- host as written, never as look-alike letters', () => {
    assert.equal(toUnicode('xn--pple-43d.com'), 'xn--pple-43d.com');
    assert.equal(punycode.toUnicode, toUnicode);
    assert.equal(punycode.toASCII, toASCII);
  });
});
