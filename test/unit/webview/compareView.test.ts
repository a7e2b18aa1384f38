import * as assert from 'node:assert/strict';
import type { CompareRunView, CompareView } from '../../../src/shared/compareView';
import { diffLineKinds, diffSegments } from '../../../webview/compare/diffLines';
import { checkSummary, fileTotals, formatDuration, runActions, statusLabel } from '../../../webview/compare/runModel';
import { compareViewOf, maxRuns, viewOfMessage } from '../../../webview/compare/viewShape';

function run(over: Partial<CompareRunView> = {}): CompareRunView {
  return {
    id: 'r1', agentName: 'Claude', title: 'Fix the parser', branch: 'switchboard/fix-parser-1', status: 'done', statusText: 'Done in 41 s',
    files: [{ path: 'src/a.ts', change: 'modified', added: 3, removed: 1 }], diff: 'diff --git a/src/a.ts b/src/a.ts\n', diffTruncated: false, ...over,
  };
}

function view(over: Partial<CompareView> = {}): CompareView {
  return { id: 'f1', prompt: 'Fix it', base: 'main', check: 'npm test', runs: [run(), run({ id: 'r2', agentName: 'Codex' })], createdAt: 1, ...over };
}

describe('compare view: diff lines', () => {
  const diff = [
    'diff --git a/x.ts b/x.ts',
    'index 1234567..89abcde 100644',
    '--- a/x.ts',
    '+++ b/x.ts',
    '@@ -1,4 +1,4 @@',
    ' keep',
    '--- a removed line that looks like a header',
    '+++ an added line that looks like a header',
    '',
    ' end',
    '\\ No newline at end of file',
  ].join('\n');

  it('classes each line by the hunk counts, not only by its prefix', () => {
    assert.deepEqual(diffLineKinds(diff).map((l) => l.kind), ['file', 'meta', 'meta', 'meta', 'hunk', 'context', 'removed', 'added', 'context', 'context', 'meta']);
  });

  it('groups runs of one kind into segments, keeping the text', () => {
    const segments = diffSegments(diff);
    assert.deepEqual(segments.map((s) => [s.kind, s.lines]), [['file', 1], ['meta', 3], ['hunk', 1], ['context', 1], ['removed', 1], ['added', 1], ['context', 2], ['meta', 1]]);
    assert.equal(segments.map((s) => s.text).join('\n'), diff);
    assert.equal(segments[6].text, '\n end');
  });

  it('reads a hunk header without counts as one line, and CRLF as line breaks', () => {
    assert.deepEqual(diffLineKinds('@@ -1 +1 @@\r\n-a\r\n+b\r\n c\r\n').map((l) => [l.kind, l.text]),
      [['hunk', '@@ -1 +1 @@'], ['removed', '-a'], ['added', '+b'], ['context', ' c']]);
  });

  it('falls back to the prefix outside hunks (a diff without headers, or one cut short)', () => {
    assert.deepEqual(diffLineKinds('+new\n-old\n same\nBinary files a/x and b/x differ').map((l) => l.kind), ['added', 'removed', 'context', 'meta']);
    // cut after two of four lines: the next file's header is a header again
    assert.deepEqual(diffLineKinds('@@ -1,4 +1,4 @@\n a\n-b\ndiff --git a/y b/y\n--- a/y').map((l) => l.kind), ['hunk', 'context', 'removed', 'file', 'meta']);
  });

  it('gives nothing for an empty diff', () => {
    assert.deepEqual(diffSegments(''), []);
  });
});

describe('compare view: the shape of what the host posts', () => {
  it('accepts a view message', () => {
    const v = view({ merged: 'r1', runs: [run({ tokens: 1200, cost: { amount: 0.25, currency: 'USD' }, check: { state: 'failed', command: 'npm test', exitCode: 1, output: 'x' } })] });
    assert.equal(viewOfMessage({ type: 'view', view: v }), v);
  });

  it('ignores anything malformed, whole', () => {
    const bad: unknown[] = [
      undefined, null, 'view', [], { type: 'other', view: view() }, { type: 'view' },
      { type: 'view', view: { ...view(), runs: 'no' } },
      { type: 'view', view: { ...view(), id: '' } },
      { type: 'view', view: { ...view(), createdAt: Number.NaN } },
      { type: 'view', view: view({ runs: [run({ status: 'exploded' as CompareRunView['status'] })] }) },
      { type: 'view', view: view({ runs: [run({ files: [{ path: 'a', change: 'renamed' as 'added', added: 1, removed: 0 }] })] }) },
      { type: 'view', view: view({ runs: [run({ tokens: -1 })] }) },
      { type: 'view', view: view({ runs: [run({ check: { state: 'passed', command: 'x' } as never })] }) },
      { type: 'view', view: view({ runs: [run(), run()] }) }, // the same id twice
      { type: 'view', view: view({ runs: Array.from({ length: maxRuns + 1 }, (_x, i) => run({ id: `r${i}` })) }) },
    ];
    for (const b of bad) assert.equal(viewOfMessage(b), undefined, JSON.stringify(b)?.slice(0, 120));
    assert.equal(compareViewOf({ ...view(), title: undefined }) !== undefined, true, 'an extra field is fine');
  });
});

describe('compare view: a run as data', () => {
  it('formats durations', () => {
    assert.deepEqual([850, 41_000, 125_000, 120_000, 3_780_000, 7_200_000].map(formatDuration), ['850 ms', '41 s', '2 min 5 s', '2 min', '1 h 3 min', '2 h']);
  });

  it('sums the files and words the check', () => {
    assert.deepEqual(fileTotals([{ path: 'a', change: 'added', added: 10, removed: 0 }, { path: 'b', change: 'modified', added: 2, removed: 5 }]), { count: 2, added: 12, removed: 5 });
    assert.equal(checkSummary(undefined).text, '—');
    assert.deepEqual(checkSummary({ state: 'failed', command: 't', exitCode: 2, durationMs: 3000, output: '' }), { text: 'Failed (exit 2) in 3 s', tone: 'failed' });
    assert.deepEqual(checkSummary({ state: 'passed', command: 't', exitCode: 0, output: '' }), { text: 'Passed', tone: 'passed' });
    assert.equal(checkSummary({ state: 'running', command: 't', output: '' }).text, 'Running…');
    assert.equal(statusLabel({ status: 'waiting', statusText: ' ' }), 'Waiting for you');
  });

  const enabled = (r: CompareRunView, v: CompareView) => runActions(r, v).filter((a) => a.shown && a.enabled).map((a) => a.type);
  const shown = (r: CompareRunView, v: CompareView) => runActions(r, v).filter((a) => a.shown).map((a) => a.type);

  it('offers every button on a done run, Merge into the base by name', () => {
    const v = view();
    assert.deepEqual(enabled(v.runs[0], v), ['open', 'review', 'merge', 'discard', 'rerunCheck', 'discardOthers']);
    assert.equal(runActions(v.runs[0], v).find((a) => a.type === 'merge')?.label, 'Merge into main');
  });

  it('waits for a running run, and has no Re-run Check without a check command', () => {
    const v = view({ check: undefined, runs: [run({ status: 'running' }), run({ id: 'r2' })] });
    assert.deepEqual(shown(v.runs[0], v), ['open', 'review', 'merge', 'discard']);
    assert.deepEqual(enabled(v.runs[0], v), ['open', 'review', 'discard']);
  });

  it('leaves a merged or discarded run only its chat, and Discard the Others to the merged one', () => {
    const v = view({ merged: 'r1', runs: [run({ status: 'merged' }), run({ id: 'r2' }), run({ id: 'r3', status: 'discarded' })] });
    assert.deepEqual(enabled(v.runs[0], v), ['open', 'discardOthers']);
    assert.deepEqual(shown(v.runs[1], v), ['open', 'review', 'merge', 'discard', 'rerunCheck'], 'no Discard the Others once another was merged');
    assert.equal(runActions(v.runs[1], v).find((a) => a.type === 'merge')?.reason, 'Another run was merged');
    assert.deepEqual(enabled(v.runs[2], v), ['open']);
  });

  it('disables what has nothing to act on', () => {
    const v = view({ runs: [run({ files: [], diff: '' }), run({ id: 'r2', status: 'discarded' })] });
    assert.deepEqual(enabled(v.runs[0], v), ['open', 'discard', 'rerunCheck']);
    const checking = view({ runs: [run({ check: { state: 'running', command: 'npm test', output: '' } })] });
    assert.deepEqual(enabled(checking.runs[0], checking), ['open', 'review', 'merge', 'discard']);
  });
});
