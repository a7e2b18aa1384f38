import * as assert from 'node:assert/strict';
import { parseJsonc, stripJsonc } from '../../../src/host/lifecycle/jsonc';

describe('parseJsonc', () => {
  it('accepts comments and trailing commas, as in .vscode/settings.json', () => {
    const text = `{
  // a line comment with "quotes" and a , ]
  "switchboard.agents": [
    { "id": "a", "command": "x", }, /* block
    comment */
  ],
  "url": "http://example.com/*not a comment*/", // after a string
  "escaped": "a \\" // still a string",
}`;
    assert.deepEqual(parseJsonc(text), {
      'switchboard.agents': [{ id: 'a', command: 'x' }],
      url: 'http://example.com/*not a comment*/',
      escaped: 'a " // still a string',
    });
  });

  it('leaves commas inside strings alone', () => {
    assert.equal(stripJsonc('{"a": ", }"}'), '{"a": ", }"}');
  });

  it('returns undefined for text that is not JSON even with comments removed', () => {
    assert.equal(parseJsonc('{"a": '), undefined);
    assert.equal(parseJsonc(''), undefined);
  });
});
