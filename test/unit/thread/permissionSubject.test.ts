/** What a permission dialog shows the user is approving: the command line, its folder and the paths, verbatim. */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { permissionSubject, shellQuote, subjectMaxChars, subjectMaxItems } from '../../../src/thread/view/permissionSubject';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView } from '../../../src/thread/view/toView';

const call = (rawInput: unknown, more: Partial<Parameters<typeof permissionSubject>[0]> = {}) =>
  permissionSubject({ rawInput, locations: [], content: [], ...more });

describe('permissionSubject', () => {
  it('takes a command line as is, with its folder', () => {
    assert.deepEqual(call({ command: 'npm test -- --grep "a b"', cwd: '/w', description: 'Run the tests' }), [
      { kind: 'command', text: 'npm test -- --grep "a b"' },
      { kind: 'cwd', text: '/w' },
    ]);
    assert.deepEqual(call({ cmd: 'ls -la', workdir: '/w/src' }), [{ kind: 'command', text: 'ls -la' }, { kind: 'cwd', text: '/w/src' }]);
  });

  it('shell-quotes an argv array, and appends args to a command', () => {
    assert.deepEqual(call({ command: ['bash', '-lc', "echo 'hi' && rm -rf x"] }), [{ kind: 'command', text: `bash -lc 'echo '\\''hi'\\'' && rm -rf x'` }]);
    assert.deepEqual(call({ command: 'node', args: ['-e', 'console.log(1)', ''] }), [{ kind: 'command', text: "node -e 'console.log(1)' ''" }]);
    assert.equal(shellQuote('src/a-b_c.ts'), 'src/a-b_c.ts');
    assert.equal(shellQuote('a\u202Eb'), "'a\u202Eb'", 'an invisible character is quoted, and kept');
  });

  it('parses a rawInput that is a JSON text of an object', () => {
    assert.deepEqual(call(JSON.stringify({ command: 'make', cwd: '/w' })), [{ kind: 'command', text: 'make' }, { kind: 'cwd', text: '/w' }]);
    assert.deepEqual(call('make all'), [], 'a plain string is not guessed at');
    assert.deepEqual(call('{not json'), []);
    assert.deepEqual(call(['make']), []);
    assert.deepEqual(call(undefined), []);
  });

  it('takes paths from rawInput, locations and diffs, each once, in that order', () => {
    const subject = call({ file_path: '/w/a.ts', old_string: 'x', new_string: 'y' }, {
      locations: [{ path: '/w/a.ts', line: 3 }, { path: '/w/b.ts' }],
      content: [
        { type: 'content', content: { type: 'text', text: 'x' } },
        { type: 'diff', path: '/w/c.ts', oldText: null, newText: 'c' },
        { type: 'diff', path: '/w/b.ts', oldText: 'b', newText: 'b2' },
      ],
    });
    assert.deepEqual(subject, [{ kind: 'path', text: '/w/a.ts' }, { kind: 'path', text: '/w/b.ts' }, { kind: 'path', text: '/w/c.ts' }]);
    assert.deepEqual(call({ path: '/p', filePath: '/q', notebook_path: '/n.ipynb', abs_path: '/r', paths: ['/s', '/t'] }).map((s) => s.text), ['/p', '/q', '/n.ipynb', '/r', '/s', '/t']);
  });

  it('keeps invisible and bidi characters (the dialog shows them), ignores values of other types', () => {
    assert.deepEqual(call({ command: 'rm -rf ./build/\u202Egpj.tset', path: 42, cwd: null, paths: ['/a', 3] }), [{ kind: 'command', text: 'rm -rf ./build/\u202Egpj.tset' }]);
  });

  it('caps the number of items and the length of one', () => {
    const many = call({}, { locations: Array.from({ length: 50 }, (_, i) => ({ path: `/w/f${i}` })) });
    assert.equal(many.length, subjectMaxItems);
    const [long] = call({ command: 'x'.repeat(subjectMaxChars + 5) });
    assert.ok(long.text.startsWith('x'.repeat(subjectMaxChars)) && long.text.endsWith('… (5 more characters)'));
  });

  it('goes with a pending request into the view model, not with an answered one', () => {
    const t = new AcpThread('s1', { info: () => undefined });
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', kind: 'execute', status: 'pending', rawInput: { command: 'make', cwd: '/w' } } as SessionUpdate);
    t.setPermission({ toolCallId: 'c1' }, 'r1', [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }]);
    const view = entryToView(t.entries[0]);
    assert.ok(view.kind === 'toolCall');
    assert.deepEqual(view.permission?.subject, [{ kind: 'command', text: 'make' }, { kind: 'cwd', text: '/w' }]);
    t.clearPermission('r1', 'Allowed once');
    const answered = entryToView(t.entries[0]);
    assert.ok(answered.kind === 'toolCall' && answered.permission === undefined);
  });

  it('a request about a call without command or path has no subject', () => {
    const t = new AcpThread('s1', { info: () => undefined });
    t.setPermission({ toolCallId: 'c2', title: 'Think harder' }, 'r2', [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }]);
    const view = entryToView(t.entries[0]);
    assert.ok(view.kind === 'toolCall' && view.permission && !('subject' in view.permission));
  });
});
