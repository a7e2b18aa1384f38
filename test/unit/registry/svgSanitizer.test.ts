import * as assert from 'node:assert/strict';
import { sanitizeSvg, tintSvg } from '../../../src/registry/svgSanitizer';

describe('svgSanitizer', () => {
  it('keeps whitelisted shapes and drops scripts, handlers, foreign objects and external refs', () => {
    const svg = `<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" onload="alert(1)">
      <script>alert(1)</script><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
      <path d="M1 1h14" fill="currentColor" onclick="x()" style="fill:red"/><use href="http://evil/x.svg#a"/>
      <rect width="2" height="2" fill="url(#g)" stroke="url(http://evil/)"/><a href="javascript:alert(1)"><circle r="1"/></a></svg>`;
    const out = sanitizeSvg(svg)!;
    assert.ok(out.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'), out);
    for (const bad of ['script', 'onload', 'onclick', 'foreignObject', 'style', 'use', 'http://evil', 'javascript', '<a', '<circle', 'alert']) assert.ok(!out.includes(bad), `${bad} in ${out}`);
    assert.ok(out.includes('<path d="M1 1h14" fill="currentColor"/>'));
    assert.ok(out.includes('fill="url(#g)"'));
  });

  it('returns undefined for what is not a plain svg document', () => {
    assert.equal(sanitizeSvg('<html><svg/></html>'), undefined);
    assert.equal(sanitizeSvg('<!DOCTYPE svg [<!ENTITY x "y">]><svg/>'), undefined);
    assert.equal(sanitizeSvg('<svg><path d="&x;"/></svg>'), undefined);
    assert.equal(sanitizeSvg('<svg><g></svg>'), undefined);
    assert.equal(sanitizeSvg('<svg/><svg/>'), undefined);
    assert.equal(sanitizeSvg('not svg'), undefined);
  });

  it('escapes what it re-serializes and tints currentColor', () => {
    assert.equal(sanitizeSvg('<svg><title>a &lt;b&gt; &amp; "c"</title></svg>'), '<svg xmlns="http://www.w3.org/2000/svg"><title>a &lt;b&gt; &amp; "c"</title></svg>');
    assert.equal(tintSvg('<path fill="currentColor"/>', '#424242'), '<path fill="#424242"/>');
  });
});
