import * as assert from 'node:assert/strict';
import { EditorToolError, agentToolPath, capText, numberedLines, problemsText, shownPath, zeroBased } from '../../../src/host/lifecycle/editorTools/toolText';

// How the editor's MCP tools write their answers (docs/editor-tools.md).

describe('editor tools / answers', () => {
  it('caps an answer at a line break, in bytes of UTF-8, and says how much was left out', () => {
    assert.equal(capText('short', 100), 'short');
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i} · é`).join('\n');
    const capped = capText(lines, 1000, 'ask for less');
    assert.ok(Buffer.byteLength(capped) <= 1000, `${Buffer.byteLength(capped)} bytes`);
    assert.match(capped, /\n… \d+ more bytes left out \(the answer is limited to 1000 bytes\): ask for less\.$/);
    const kept = capped.split('\n').slice(0, -1);
    assert.ok(kept.every((l) => /^line \d+ · é$/.test(l)), 'only whole lines are kept');
  });

  it('shows paths relative to the session folder, and takes relative, absolute and file:// paths', () => {
    assert.equal(shownPath('/work/p', '/work/p/src/a.ts'), 'src/a.ts');
    assert.equal(shownPath('/work/p', '/work/other/a.ts'), '/work/other/a.ts');
    assert.equal(agentToolPath('/work/p', 'src/../b.ts'), '/work/p/b.ts');
    assert.equal(agentToolPath('/work/p', '/etc/passwd'), '/etc/passwd');
    assert.equal(agentToolPath('/work/p', 'file:///work/p/a%20b.ts'), '/work/p/a b.ts');
    assert.throws(() => agentToolPath('/work/p', ' '), (e: unknown) => EditorToolError.is(e));
    assert.throws(() => agentToolPath('/work/p', 'a\0b'), /NUL/);
  });

  it('counts lines and columns from 1', () => {
    assert.deepEqual(zeroBased(1, 1), { line: 0, character: 0 });
    assert.throws(() => zeroBased(0, 1), /line counts from 1/);
    assert.throws(() => zeroBased(1, 1.5), /column counts from 1/);
  });

  it('lists problems most severe first, with a count, the source and code, and notes unsaved files', () => {
    const text = problemsText('/p', [
      { file: '/p/b.ts', severity: 1, start: { line: 0, character: 0 }, end: { line: 0, character: 3 }, message: 'unused', source: 'eslint', code: 'no-unused' },
      { file: '/p/a.ts', severity: 0, start: { line: 4, character: 6 }, end: { line: 4, character: 11 }, message: "Type 'string' is not\n  assignable", source: 'ts', code: '2322' },
    ], new Set(['/p/a.ts']));
    assert.equal(text, [
      '2 problems in 2 files (1 error, 1 warning)',
      '(unsaved changes in the editor: a.ts; the problems are of the text as the editor holds it)',
      "a.ts:5:7-5:12 error [ts 2322]: Type 'string' is not assignable",
      'b.ts:1:1-1:4 warning [eslint no-unused]: unused',
    ].join('\n'));
    assert.equal(problemsText('/p', [], new Set()), 'No problems.');
    const two = { file: '/p/a.ts', severity: 0, start: { line: 0, character: 0 }, end: { line: 0, character: 1 }, message: 'x' };
    assert.match(problemsText('/p', [two, two], new Set()), /^2 problems in 1 file \(2 errors\)/);
  });

  it('numbers the lines of a range, clamped to the text', () => {
    const r = numberedLines('a\nb\nc\nd', 2, 3);
    assert.deepEqual(r, { text: '2  b\n3  c', from: 2, to: 3, total: 4 });
    assert.equal(numberedLines('a\nb', 5, 9).text, '2  b');
  });
});

describe('editor tools / the session part', () => {
  it('holds the grant, follows the roots, lists the servers for the header and revokes the grant when the session ends', async () => {
    const { EditorToolsBinding } = await import('../../../src/host/lifecycle/editorTools/editorToolsPart');
    const context = { sessionId: 's1', cwd: '/p', additionalDirectories: ['/extra'] } as unknown as ConstructorParameters<typeof EditorToolsBinding>[0];
    const lines: string[] = [];
    let revoked = 0;
    const grant = { roots: [] as readonly string[], sessionId: undefined as string | undefined, session: undefined, log: (l: string) => lines.push(l), revoke: () => { revoked++; } };
    const binding = new EditorToolsBinding(context);
    binding.hold(grant as never, {} as never);
    assert.deepEqual(grant.roots, ['/p', '/extra']);
    assert.equal(grant.sessionId, 's1');
    const editor = { type: 'http' as const, name: 'vscode', url: 'http://127.0.0.1:1/mcp', headers: [] };
    binding.setServers([{ name: 'files', command: 'node', args: [], env: [] }, editor], editor);
    assert.equal(binding.tooltip(), "MCP servers of this session:\nfiles (stdio)\nvscode: the editor's tools (HTTP)");
    const next = { ...grant, revoke: () => undefined };
    binding.hold(next as never, {} as never);
    assert.equal(revoked, 1, 'a new setup\'s grant replaces the old one, which stops working');
    binding.dispose();
    assert.equal(binding.grant, undefined);
  });
});
