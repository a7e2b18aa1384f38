import * as assert from 'node:assert/strict';
import { mcpServersSummary } from '../../../src/demoAgent/stepRunner';

describe('{{mcpServers}} template', () => {
  it('is "none" without servers', () => {
    assert.equal(mcpServersSummary([]), 'none');
  });

  it('names each server, its transport and command or URL, and env/header names but not their values', () => {
    const line = mcpServersSummary([
      { name: 'files', command: 'node', args: ['a.js'], env: [{ name: 'TOKEN', value: 'secret-1' }] },
      { type: 'http', name: 'docs', url: 'https://x/mcp', headers: [{ name: 'Authorization', value: 'secret-2' }] },
      { type: 'sse', name: 'ev', url: 'https://x/sse', headers: [] },
    ]);
    assert.equal(line, 'stdio files node [a.js] env=TOKEN; http docs https://x/mcp headers=Authorization; sse ev https://x/sse');
    assert.doesNotMatch(line, /secret/);
  });
});
