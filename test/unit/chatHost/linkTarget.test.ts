import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { languageIdOf, resolveLinkTarget } from '../../../src/chatHost/linkTarget';

describe('chat links (src/chatHost/linkTarget)', () => {
  const cwd = '/work/project';
  const posix = path.posix;

  it('opens http(s) as web pages (normalized)', () => {
    assert.deepEqual(resolveLinkTarget('https://example.com/a b?q=1#frag', cwd, posix), { kind: 'web', url: 'https://example.com/a%20b?q=1#frag' });
    assert.deepEqual(resolveLinkTarget('HTTP://Example.com', cwd, posix), { kind: 'web', url: 'http://example.com/' });
    assert.equal(resolveLinkTarget('https://', cwd, posix).kind, 'refused');
  });

  it('opens files at a line: file URLs, absolute and relative paths, #L and :line forms', () => {
    assert.deepEqual(resolveLinkTarget('file:///work/project/src/a.ts#L12', cwd, posix), { kind: 'file', path: '/work/project/src/a.ts', line: 12 });
    assert.deepEqual(resolveLinkTarget('src/a.ts#L12-L20', cwd, posix), { kind: 'file', path: '/work/project/src/a.ts', line: 12, endLine: 20 });
    assert.deepEqual(resolveLinkTarget('src/a.ts#L7C3', cwd, posix), { kind: 'file', path: '/work/project/src/a.ts', line: 7, column: 3 });
    assert.deepEqual(resolveLinkTarget('./src/a.ts:12:5', cwd, posix), { kind: 'file', path: '/work/project/src/a.ts', line: 12, column: 5 });
    assert.deepEqual(resolveLinkTarget('/etc/hosts', cwd, posix), { kind: 'file', path: '/etc/hosts' });
    assert.deepEqual(resolveLinkTarget('../other/My%20File.md', cwd, posix), { kind: 'file', path: '/work/other/My File.md' });
    assert.deepEqual(resolveLinkTarget('README.md', cwd, posix), { kind: 'file', path: '/work/project/README.md' });
  });

  it('refuses every other scheme, network paths and junk', () => {
    for (const href of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'vbscript:x', 'data:text/html,<b>', 'command:workbench.action.terminal.new', 'vscode://x', 'mailto:a@b.c', '//evil.example/share', '\\\\server\\share', 'file://evil.example/share/x', '', 'x'.repeat(9000)]) {
      assert.equal(resolveLinkTarget(href, cwd, posix).kind, 'refused', href.slice(0, 40));
    }
  });

  it('knows Windows drive paths', () => {
    assert.deepEqual(resolveLinkTarget('C:\\repo\\a.ts:3', 'C:\\repo', path.win32), { kind: 'file', path: 'C:\\repo\\a.ts', line: 3 });
    assert.deepEqual(resolveLinkTarget('src\\b.ts', 'C:\\repo', path.win32), { kind: 'file', path: 'C:\\repo\\src\\b.ts' });
  });

  it('maps fence labels to language ids', () => {
    assert.equal(languageIdOf('ts'), 'typescript');
    assert.equal(languageIdOf('Bash'), 'shellscript');
    assert.equal(languageIdOf('rust'), 'rust');
    assert.equal(languageIdOf(''), undefined);
  });
});
