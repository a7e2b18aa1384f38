/**
 * A tool call's `rawOutput` mapped to the card's view (src/thread/view/rawOutput.ts), over the shapes agents send: codex-acp's
 * exec and patch events, plain strings, nested junk and huge values.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '../../../src/acp/schema/types.gen';
import { zSessionNotification } from '../../../src/acp/schema/zod.gen';
import type { RawOutputView } from '../../../src/shared/rawOutputModel';
import { rawDiffMaxFiles, rawDiffMaxLines, rawJsonMaxChars, rawOutputToView, rawTextTailChars } from '../../../src/thread/view/rawOutput';
import { AcpThread } from '../../../src/thread/model/thread';
import { entryToView } from '../../../src/thread/view/toView';

const esc = '\x1b';

/** codex-acp's `ExecCommandEndEvent`, as it sends it in `rawOutput`. */
const codexExec = {
  call_id: 'call_1', turn_id: 't1',
  command: ['bash', '-lc', "rg -n 'it works' src"],
  cwd: '/w/project',
  parsed_cmd: [{ type: 'search', cmd: "rg -n 'it works' src", query: 'it works', path: 'src' }],
  source: 'agent',
  stdout: 'src/a.ts:3:it works\n',
  stderr: `${esc}[33mwarning${esc}[0m: skipped 2 binary files\n`,
  aggregated_output: `src/a.ts:3:it works\n${esc}[33mwarning${esc}[0m: skipped 2 binary files\n`,
  exit_code: 0,
  duration: { secs: 0, nanos: 41_000_000 },
  formatted_output: 'src/a.ts:3:it works\nwarning: skipped 2 binary files\n',
  status: 'completed',
};

/** codex-acp's `PatchApplyEndEvent` with a `changes` map. */
const codexPatch = {
  call_id: 'call_2', turn_id: 't1',
  stdout: 'Success. Updated the following files:\nM src/a.ts\nA src/new.ts\nD old.txt\n',
  stderr: '',
  success: true,
  changes: {
    '/w/project/src/a.ts': { type: 'update', unified_diff: '@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n', move_path: '/w/project/src/b.ts' },
    '/w/project/src/new.ts': { type: 'add', content: 'export const x = 1;\nexport const y = 2;\n' },
    '/w/project/old.txt': { type: 'delete', content: 'gone\n' },
  },
  status: 'completed',
};

function view(raw: unknown, hasContent = false): RawOutputView {
  const v = rawOutputToView(raw, hasContent);
  assert.ok(v, 'a view');
  return v;
}

describe('rawOutput of a tool call', () => {
  it("shows codex-acp's exec event as the command line, the aggregated output and the exit code; the rest is JSON", () => {
    const v = view(codexExec);
    assert.equal(v.command, "bash -lc 'rg -n '\\''it works'\\'' src'");
    assert.equal(v.exitCode, 0);
    assert.deepEqual(v.texts, [{ label: 'output', text: codexExec.aggregated_output }], 'stdout, stderr and formatted_output repeat it');
    assert.deepEqual(v.diffs, []);
    const rest = JSON.parse(v.json ?? '{}') as Record<string, unknown>;
    assert.deepEqual(Object.keys(rest).sort(), ['call_id', 'cwd', 'duration', 'parsed_cmd', 'source', 'status', 'turn_id']);
  });

  it('shows stdout and stderr each with its label when nothing aggregates them, ANSI kept', () => {
    const v = view({ command: 'make', stdout: `${esc}[32mok${esc}[0m\n`, stderr: 'warn\n', exit_code: 2 });
    assert.equal(v.command, 'make');
    assert.equal(v.exitCode, 2);
    assert.deepEqual(v.texts, [{ label: 'stdout', text: `${esc}[32mok${esc}[0m\n` }, { label: 'stderr', text: 'warn\n' }]);
    assert.equal(v.json, undefined, 'nothing else');
    assert.deepEqual(view({ stdout: '', stderr: '', exitCode: 0 }).texts, [], 'empty streams show nothing (and leave no JSON)');
    assert.equal(view({ stdout: '', stderr: '', exitCode: 0 }).json, undefined);
    assert.deepEqual(view({ formatted_output: 'Exit code: 0\nOutput:\nhi' }).texts, [{ label: 'output', text: 'Exit code: 0\nOutput:\nhi' }]);
    assert.deepEqual(view({ output: 'hi' }).texts, [{ label: 'output', text: 'hi' }]);
  });

  it("shows codex-acp's patch event as one diff per file: updated (moved), added and deleted, parsed with the diff package", () => {
    const v = view(codexPatch);
    assert.deepEqual(v.texts, [{ label: 'stdout', text: codexPatch.stdout }]);
    assert.deepEqual(v.diffs.map((d) => [d.path, d.change, d.movePath]), [
      ['/w/project/src/a.ts', 'modified', '/w/project/src/b.ts'],
      ['/w/project/src/new.ts', 'added', undefined],
      ['/w/project/old.txt', 'deleted', undefined],
    ]);
    assert.deepEqual(v.diffs[0].hunks, [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' one', '-two', '+TWO', ' three'] }]);
    assert.deepEqual(v.diffs[1].hunks.flatMap((h) => h.lines), ['+export const x = 1;', '+export const y = 2;']);
    assert.deepEqual(v.diffs[2].hunks.flatMap((h) => h.lines), ['-gone']);
    assert.deepEqual(JSON.parse(v.json ?? '{}'), { call_id: 'call_2', turn_id: 't1', success: true, status: 'completed' }, 'the changes are not repeated in the JSON');
  });

  it('reads other shapes of a change: a diff string, `diff`, an externally tagged update, an array with paths, a top-level unified diff', () => {
    const diff = '@@ -1 +1 @@\n-a\n+b\n';
    assert.equal(view({ changes: { '/p/a': diff } }).diffs[0].hunks.length, 1);
    assert.equal(view({ changes: { '/p/a': { diff } } }).diffs[0].change, 'modified');
    assert.equal(view({ changes: { '/p/a': { update: { unified_diff: diff } } } }).diffs[0].hunks[0].lines.length, 2);
    assert.equal(view({ changes: { '/p/a': { add: { content: 'x\n' } } } }).diffs[0].change, 'added');
    assert.deepEqual(view({ changes: [{ path: '/p/a', unified_diff: diff }] }).diffs.map((d) => d.path), ['/p/a']);
    const top = view({ diff: `--- a/src/x.ts\n+++ b/src/x.ts\n${diff}--- /dev/null\n+++ b/src/y.ts\n@@ -0,0 +1 @@\n+new\n` });
    assert.deepEqual(top.diffs.map((d) => [d.path, d.change]), [['src/x.ts', 'modified'], ['src/y.ts', 'added']]);
    assert.equal(top.json, undefined);
  });

  it('shows a plain string as printed text, and nothing for null, an empty string or undefined', () => {
    assert.deepEqual(view(`${esc}[1mhi${esc}[0m\n`), { texts: [{ label: 'output', text: `${esc}[1mhi${esc}[0m\n` }], diffs: [] });
    assert.equal(rawOutputToView(null, false), undefined);
    assert.equal(rawOutputToView('', false), undefined);
    assert.equal(rawOutputToView(undefined, false), undefined);
  });

  it('keeps what does not fit the known shapes as JSON: wrong types, junk changes, arrays, numbers, a malformed diff', () => {
    const junk = { stdout: 42, exit_code: '0', command: [1, 2], changes: { '/a': 5, '/b': { unified_diff: 7 }, '/c': '@@ -1,3 +1,1 @@\n-x\n' }, deep: { a: [{ b: null }] } };
    const v = view(junk);
    assert.deepEqual([v.command, v.exitCode, v.texts, v.diffs], [undefined, undefined, [], []]);
    assert.deepEqual(JSON.parse(v.json ?? '{}'), junk, 'all of it, as JSON');
    const mixed = view({ changes: { '/ok': '@@ -1 +1 @@\n-a\n+b\n', '/bad': 5 } });
    assert.deepEqual(mixed.diffs.map((d) => d.path), ['/ok']);
    assert.deepEqual(JSON.parse(mixed.json ?? '{}'), { changes: { '/bad': 5 } }, 'the entries that are not diffs stay');
    assert.deepEqual(JSON.parse(view([1, { a: 2 }]).json ?? ''), [1, { a: 2 }]);
    assert.equal(view(42).json, '42');
    assert.deepEqual(view({ diff: 'not a diff at all' }).diffs, []);
  });

  it('offers all of it as JSON when the tool call has content of its own', () => {
    const v = view(codexExec, true);
    assert.deepEqual([v.command, v.texts, v.diffs], [undefined, [], []]);
    assert.deepEqual(JSON.parse(v.json ?? '{}'), codexExec);
    assert.equal(view('printed', true).json, 'printed');
  });

  it('caps huge values: the tail of a text, the head of the JSON, diff lines and files, the command line', () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n');
    const t = view({ stdout: big }).texts[0];
    assert.ok(t.text.length <= rawTextTailChars && t.text.endsWith('line 19999') && t.text.startsWith('line '), 'the last lines, from a line start');
    assert.equal((t.droppedChars ?? 0) + t.text.length, big.length);
    const j = view({ blob: big });
    assert.ok((j.json ?? '').length <= rawJsonMaxChars && (j.jsonDroppedChars ?? 0) > 0);
    const hunk = `@@ -1,${3000} +1,${3000} @@\n${Array.from({ length: 3000 }, (_, i) => `-old ${i}\n+new ${i}`).join('\n')}\n`;
    const many = Object.fromEntries(Array.from({ length: rawDiffMaxFiles + 5 }, (_, i) => [`/f${i}`, i === 0 ? hunk : '@@ -1 +1 @@\n-a\n+b\n']));
    const d = view({ changes: many });
    assert.equal(d.diffs.length, rawDiffMaxFiles);
    assert.equal(d.omittedDiffs, 5);
    const lines = d.diffs.reduce((n, x) => n + x.hunks.reduce((m, h) => m + h.lines.length, 0), 0);
    assert.equal(lines, rawDiffMaxLines);
    assert.equal(d.diffs[0].omittedLines, 6000 - rawDiffMaxLines);
    assert.equal(d.diffs[1].hunks.length, 0, 'the budget is spent');
    assert.ok((view({ command: 'x'.repeat(100_000) }).command ?? '').length < 5000);
  });

  it('is part of the tool call view, and the same object is mapped once', () => {
    const t = new AcpThread('s1');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Run', kind: 'execute' } as SessionUpdate);
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed', rawOutput: codexExec } as SessionUpdate);
    const v = entryToView(t.entries[0]);
    assert.ok(v.kind === 'toolCall');
    assert.equal(v.rawOutput?.exitCode, 0);
    const again = entryToView(t.entries[0]);
    assert.ok(again.kind === 'toolCall' && again.rawOutput === v.rawOutput, 'memoized by the rawOutput object');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'a', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] } as SessionUpdate);
    const withContent = entryToView(t.entries[0]);
    assert.ok(withContent.kind === 'toolCall' && withContent.rawOutput?.texts.length === 0 && withContent.rawOutput.json?.includes('aggregated_output'), 'with content, JSON only');
  });

  it('survives validation in any JSON shape (the schema leaves rawInput and rawOutput free): a string, an array, a number', () => {
    for (const value of ['printed\n', ['a', 1], 42, { a: 1 }]) {
      const n = zSessionNotification.parse({ sessionId: 's', update: { sessionUpdate: 'tool_call_update', toolCallId: 'a', rawOutput: value, rawInput: value } });
      const u = n.update as { rawOutput?: unknown; rawInput?: unknown };
      assert.deepEqual([u.rawOutput, u.rawInput], [value, value]);
    }
  });

  it('caps the raw input too', () => {
    const t = new AcpThread('s1');
    t.handleSessionUpdate({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'Write', rawInput: { content: 'y'.repeat(100_000) } } as SessionUpdate);
    const v = entryToView(t.entries[0]);
    assert.ok(v.kind === 'toolCall' && (v.rawInput ?? '').length <= rawJsonMaxChars && (v.rawInputDroppedChars ?? 0) > 60_000);
  });
});
