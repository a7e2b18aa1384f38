import * as assert from 'node:assert/strict';
import { commitIntervalMs, frameBudgetMs, hiddenIntervalMs, RenderScheduler, sliceBudgetMs, smallCommitChars } from '../../../webview/transcript/scheduler';
import type { FrameWork, SchedulerHost, TextRendered } from '../../../webview/transcript/scheduler';

/** A page in slow motion: a clock that moves only when told, and queues of frames, timers and tasks. */
class FakePage implements SchedulerHost {
  time = 1000;
  isHidden = false;
  frames = new Map<number, () => void>();
  timers = new Map<number, { at: number; callback: () => void }>();
  tasks: Array<() => void> = [];
  private nextHandle = 1;

  now(): number { return this.time; }
  hidden(): boolean { return this.isHidden; }
  requestFrame(callback: () => void): number {
    const handle = this.nextHandle++;
    this.frames.set(handle, callback);
    return handle;
  }
  cancelFrame(handle: number): void { this.frames.delete(handle); }
  setTimer(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + ms, callback });
    return handle;
  }
  clearTimer(handle: unknown): void { this.timers.delete(handle as number); }
  postTask(callback: () => void): void { this.tasks.push(callback); }

  /** Runs the pending animation frames. */
  frame(): void {
    const due = [...this.frames.values()];
    this.frames.clear();
    for (const f of due) f();
  }
  /** Runs the next task between frames; false when there is none. */
  task(): boolean {
    const t = this.tasks.shift();
    t?.();
    return Boolean(t);
  }
  /** Moves the clock, running the timers that come due. */
  advance(ms: number): void {
    this.time += ms;
    for (const [handle, t] of [...this.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at > this.time) continue;
      this.timers.delete(handle);
      t.callback();
    }
  }
}

/** One entry's streamed text: how much is left to render, and how much a render takes of it and of the clock. */
interface FakeText { left: number; perRender: number; msPerRender: number; finalChars: number }

/** The transcript's side, recording what the scheduler asked of it. */
class FakeWork implements FrameWork<string> {
  log: string[] = [];
  texts = new Map<number, FakeText>();
  committed: string[] = [];
  turnEnding = false;
  deadlines: number[] = [];

  constructor(private readonly page: FakePage) {}

  beforeText(deadline: number): void { this.log.push(`before@${deadline - this.page.time}`); }
  turnEnds(): boolean { this.log.push('turnEnds'); return this.turnEnding; }
  afterText(): void { this.log.push('after'); }
  afterFrame(): void { this.log.push('afterFrame'); }
  renderText(index: number, deadline: number): TextRendered<string> | undefined {
    this.deadlines.push(deadline);
    const t = this.texts.get(index);
    if (!t || t.left <= 0) return undefined;
    this.log.push(`render ${index}`);
    t.left -= t.perRender;
    this.page.time += t.msPerRender;
    return { node: `node${index}`, finalChars: t.finalChars, pending: t.left > 0 };
  }
  commitText(node: string): void {
    this.log.push(`commit ${node}`);
    this.committed.push(node);
  }
}

function setup() {
  const page = new FakePage();
  const work = new FakeWork(page);
  const scheduler = new RenderScheduler<string>(page, work);
  return { page, work, scheduler };
}

describe('RenderScheduler: frames, slices between frames and commits of streamed text', () => {
  it('keeps its tuned budgets', () => {
    assert.deepEqual([frameBudgetMs, sliceBudgetMs, commitIntervalMs, smallCommitChars, hiddenIntervalMs], [1, 12, 100, 2000, 100]);
  });

  it('coalesces everything scheduled before a frame into one frame', () => {
    const { page, work, scheduler } = setup();
    scheduler.schedule();
    scheduler.schedule();
    assert.equal(page.frames.size, 1);
    page.frame();
    assert.deepEqual(work.log, [`before@${frameBudgetMs}`, 'turnEnds', 'after', 'afterFrame']);
    assert.equal(page.tasks.length, 0, 'nothing left to render: no task between frames');
  });

  it('renders on a timer while the document is hidden, and switches when it shows', () => {
    const { page, work, scheduler } = setup();
    page.isHidden = true;
    scheduler.schedule();
    assert.equal(page.frames.size, 0);
    assert.equal(page.timers.size, 1);
    page.isHidden = false;
    scheduler.visibilityChanged();
    assert.equal(page.timers.size, 0);
    assert.equal(page.frames.size, 1);
    page.isHidden = true;
    scheduler.visibilityChanged();
    assert.deepEqual([page.frames.size, page.timers.size], [0, 1]);
    page.advance(hiddenIntervalMs);
    assert.ok(work.log.includes('afterFrame'), 'the timer rendered');
  });

  it('does nothing on a visibility change when no render is scheduled', () => {
    const { page, scheduler } = setup();
    scheduler.visibilityChanged();
    assert.deepEqual([page.frames.size, page.timers.size], [0, 0]);
  });

  it('renders text newest first within the frame budget, and commits a small amount at once', () => {
    const { page, work, scheduler } = setup();
    work.texts.set(1, { left: 1, perRender: 1, msPerRender: 0, finalChars: 10 });
    work.texts.set(3, { left: 1, perRender: 1, msPerRender: 0, finalChars: 10 });
    scheduler.textChanged(1);
    scheduler.textChanged(3);
    scheduler.schedule();
    const start = page.time;
    page.frame();
    assert.deepEqual(work.deadlines, [start + frameBudgetMs, start + frameBudgetMs]);
    assert.deepEqual(work.log, [`before@${frameBudgetMs}`, 'render 3', 'render 1', 'turnEnds', 'commit node3', 'commit node1', 'after', 'afterFrame']);
  });

  it('goes on between frames in slices when the frame budget runs out, and leaves the frame to the browser meanwhile', () => {
    const { page, work, scheduler } = setup();
    work.texts.set(0, { left: 5, perRender: 1, msPerRender: 2, finalChars: 10 });
    scheduler.textChanged(0);
    scheduler.schedule();
    page.frame();
    assert.equal(work.log.filter((l) => l === 'render 0').length, 1, 'one render: the 1 ms frame budget is spent');
    assert.equal(page.tasks.length, 1, 'the rest goes on in a task');

    work.log = [];
    work.deadlines = [];
    const taskStart = page.time;
    scheduler.schedule();
    page.frame(); // a frame while a task is posted: it renders no text
    assert.deepEqual(work.log, [`before@${frameBudgetMs}`, 'turnEnds', 'after', 'afterFrame']);

    work.log = [];
    page.task();
    assert.equal(work.deadlines[0], taskStart + sliceBudgetMs);
    assert.ok(work.log.filter((l) => l === 'render 0').length >= 1);
    while (page.task()) { /* until no text is left */ }
    assert.equal(work.texts.get(0)?.left, 0);
    assert.ok(work.committed.includes('node0'), 'small text is committed by the slices');
  });

  it('commits a fast stream at most every commitIntervalMs, in a task of its own', () => {
    const { page, work, scheduler } = setup();
    // a large amount of final text per render: every commit waits for the interval
    work.texts.set(0, { left: 1, perRender: 1, msPerRender: 0, finalChars: smallCommitChars });
    scheduler.textChanged(0);
    scheduler.schedule();
    page.frame();
    assert.deepEqual(work.committed, ['node0'], 'the first commit is due at once');
    const firstCommitAt = page.time;

    work.texts.set(0, { left: 1, perRender: 1, msPerRender: 0, finalChars: smallCommitChars });
    scheduler.textChanged(0);
    scheduler.schedule();
    page.advance(10);
    page.frame();
    assert.deepEqual(work.committed, ['node0'], 'the next one waits');
    assert.equal(page.timers.size, 1, 'a timer schedules it');
    page.advance(commitIntervalMs);
    assert.equal(page.frames.size, 1, 'the timer asks for a frame');
    page.frame();
    assert.deepEqual(work.committed, ['node0', 'node0']);
    assert.ok(page.time - firstCommitAt >= commitIntervalMs);
  });

  it('a slice whose text is due for a commit leaves the commit to the next task', () => {
    const { page, work, scheduler } = setup();
    work.texts.set(0, { left: 3, perRender: 1, msPerRender: sliceBudgetMs, finalChars: 10 });
    scheduler.textChanged(0);
    scheduler.schedule();
    page.frame(); // renders once (over budget), commits it (small)
    assert.deepEqual(work.committed, ['node0']);
    work.log = [];
    page.task(); // renders; the commit is due: the next task commits
    assert.deepEqual(work.log, ['render 0']);
    work.log = [];
    page.task();
    assert.deepEqual(work.log, ['commit node0']);
  });

  it('commits everything at once when the turn ends, even while tasks between frames render', () => {
    const { page, work, scheduler } = setup();
    work.texts.set(0, { left: 5, perRender: 1, msPerRender: 2, finalChars: smallCommitChars });
    scheduler.textChanged(0);
    scheduler.schedule();
    page.frame();
    assert.equal(work.committed.length, 1, 'the first commit is due at once');
    page.task(); // renders more; its commit waits for the interval
    assert.equal(work.committed.length, 1);
    assert.equal(page.tasks.length, 1, 'still behind');
    work.turnEnding = true;
    scheduler.schedule();
    page.frame();
    assert.equal(work.committed.length, 2, 'the end of the turn shows at once');
  });

  it('drops entries with nothing to render, and forgets all text on clearText', () => {
    const { page, work, scheduler } = setup();
    scheduler.textChanged(7); // no text: renderText answers undefined
    scheduler.schedule();
    page.frame();
    assert.equal(page.tasks.length, 0);

    work.texts.set(0, { left: 9, perRender: 1, msPerRender: 5, finalChars: 10 });
    scheduler.textChanged(0);
    scheduler.clearText();
    scheduler.schedule();
    page.frame();
    assert.ok(!work.log.includes('render 0'));
    assert.deepEqual(work.committed, []);
  });
});
