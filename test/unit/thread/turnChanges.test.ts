import * as assert from 'node:assert/strict';
import type { ContentBlock } from '../../../src/acp/schema/types.gen';
import { contextOpenTag } from '../../../src/thread/util/contextHeader';
import { editedContinuation } from '../../../src/thread/export/messageActions';
import { promptTitle } from '../../../src/thread/util/promptTitle';
import { AcpThread } from '../../../src/thread/model/thread';
import type { ThreadEntry } from '../../../src/thread/model/thread';
import { toMarkdown } from '../../../src/thread/export/toMarkdown';
import { entryToView } from '../../../src/thread/view/toView';
import { changesSummary, isChangesEntry, restoreMarkRange } from '../../../src/thread/model/turnChanges';
import type { ChangesEntry } from '../../../src/thread/model/turnChanges';

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const turn = (id: string, files: ChangesEntry['files'], extra: Partial<ChangesEntry> = {}): ChangesEntry => ({ kind: 'changes', id, role: 'turn', files, from: 'c1', to: 'c2', ...extra });
const file = (rel: string, change: 'created' | 'modified' | 'deleted', added?: number, removed?: number) => ({ path: `/w/${rel}`, rel, change, ...(added !== undefined ? { added, removed: removed ?? 0 } : {}) });

describe('checkpoints in the thread (src/thread/model/turnChanges.ts)', () => {
  it('a changes entry reads as one line, and is shown with each file\'s name and folder', () => {
    const e = turn('e3', [file('src/a.ts', 'modified', 2, 1), file('notes/n.md', 'created', 3), file('x.bin', 'deleted')]);
    assert.equal(changesSummary(e), 'Changed in this turn: 3 files +5 \u22121');
    assert.equal(changesSummary({ ...e, role: 'restore', label: 'the checkpoint before "fix"', undone: true }), 'Restored the checkpoint before "fix": 3 files +5 \u22121 (restore undone)');
    assert.deepEqual(entryToView(e), {
      kind: 'changes', id: 'e3', role: 'turn', files: [
        { path: '/w/src/a.ts', name: 'a.ts', folder: 'src', change: 'modified', added: 2, removed: 1 },
        { path: '/w/notes/n.md', name: 'n.md', folder: 'notes', change: 'created', added: 3, removed: 0 },
        { path: '/w/x.bin', name: 'x.bin', folder: '', change: 'deleted' },
      ],
    });
    assert.match(toMarkdown([e]), /^> Changed in this turn: 3 files \+5 −1: src\/a\.ts, notes\/n\.md, x\.bin\n$/);
  });

  it('reads back only well-formed changes entries (the transcript store\'s check)', () => {
    assert.ok(isChangesEntry(turn('e1', [file('a', 'created', 1)], { undone: true, afterRestore: true } as Partial<ChangesEntry>)));
    assert.ok(!isChangesEntry({ ...turn('e1', []), files: 'nope' }));
    assert.ok(!isChangesEntry({ ...turn('e1', [{ ...file('a', 'created'), change: 'renamed' } as never]) }));
    assert.ok(!isChangesEntry({ ...turn('e1', []), role: 'other' }));
  });

  it('a user message with a checkpoint offers Restore Checkpoint; marked entries say they came after a restored checkpoint', () => {
    const t = new AcpThread('s1');
    const changed: number[] = [];
    t.onDidChange((c) => { if (c.type === 'entry') changed.push(c.index); });
    t.addUserMessage([text('one')]);
    t.setCheckpoint('e1', 'c1');
    assert.deepEqual(changed, [0, 0]);
    assert.equal((entryToView(t.entries[0]) as { checkpoint?: boolean }).checkpoint, true);
    t.setCheckpoint('e404', 'c9'); // gone: nothing happens
    t.entries[0].afterRestore = true;
    assert.equal(entryToView(t.entries[0]).afterRestore, true);
  });

  it('marks the range of the newest restore that was not undone; an undone one gives way to the one before it', () => {
    const t = new AcpThread('s1');
    for (const m of ['one', 'two', 'three']) t.addUserMessage([text(m)]); // e1 e2 e3
    const restore = (first: string, last: string): number => t.addEntry((id) => ({ kind: 'changes', id, role: 'restore', files: [], from: 'c5', to: 'c1', marked: { first, last } }));
    const r1 = restore('e1', 'e3'); // e4
    t.refreshRestoreMarks();
    assert.deepEqual(t.entries.filter((e) => e.afterRestore).map((e) => e.id), ['e1', 'e2', 'e3']);
    restore('e3', 'e4'); // e5
    t.refreshRestoreMarks();
    assert.deepEqual(t.entries.filter((e) => e.afterRestore).map((e) => e.id), ['e3', 'e4'], 'only the newest restore marks');
    t.markUndone(t.entries[4].id);
    t.refreshRestoreMarks();
    assert.deepEqual(t.entries.filter((e) => e.afterRestore).map((e) => e.id), ['e1', 'e2', 'e3'], 'its undo brings the older marks back');
    t.markUndone(t.entries[r1].id);
    assert.equal(restoreMarkRange(t.entries), undefined);
  });

  it('Edit & Resend of an earlier message: the context of the turns before it, then the edited text and its other blocks', () => {
    const entries: ThreadEntry[] = [
      { kind: 'user', id: 'e1', content: [text('make a plan')] },
      { kind: 'agent', id: 'e2', text: 'The plan.', blocks: [] },
      turn('e3', [file('plan.md', 'created', 4)]),
      { kind: 'user', id: 'e4', content: [text('do step 1'), { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }] },
      { kind: 'agent', id: 'e5', text: 'Done.', blocks: [] },
    ];
    const prompt = editedContinuation(entries, 3, 'do step 2 instead', { title: 'Planning', cwd: '/w' });
    assert.equal(prompt.length, 3);
    assert.ok(prompt[0].type === 'text' && prompt[0].text.startsWith(contextOpenTag({ title: 'Planning', turns: 1, files: 1 })));
    assert.ok(prompt[0].type === 'text' && prompt[0].text.includes('User: make a plan') && prompt[0].text.includes('- plan.md') && !prompt[0].text.includes('do step 1'), 'only what came before the message');
    assert.deepEqual(prompt.slice(1), [text('do step 2 instead'), { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' }]);
    assert.deepEqual(editedContinuation(entries, 0, 'plan better', { title: 'Planning', cwd: '/w' }), [text('plan better')], 'the first message: no context');
    assert.equal(promptTitle(prompt), 'do step 2 instead', 'the new session is named after the edited message');
  });
});
