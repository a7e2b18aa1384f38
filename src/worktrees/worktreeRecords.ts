/**
 * The records Switchboard keeps of the worktrees it made for sessions, and of fan-outs (one prompt run by
 * several agents, each in its own worktree), in one JSON file. What is read back from disk is validated
 * (docs/architecture.md, "Rules"): a file that is not what we wrote is never thrown away silently: it is
 * renamed to `<file>.corrupt-<time>` (or, when only some records are bad, copied there and the good ones
 * kept) and the problem reported. Saves are atomic (a temporary file renamed over the record) and one at a time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod/mini';

const zWorktreeRecord = z.object({
  id: z.string(),
  /** The base repository's top-level folder. */
  top: z.string(),
  baseBranch: z.string(),
  baseCommit: z.string(),
  /** The worktree's folder. */
  path: z.string(),
  branch: z.string(),
  agentId: z.string(),
  sessionKey: z.optional(z.string()),
  fanOutId: z.optional(z.string()),
  state: z.enum(['active', 'archived', 'discarded', 'merged']),
  createdAt: z.number(),
});

const zCheck = z.object({
  state: z.enum(['pending', 'running', 'passed', 'failed', 'skipped']),
  command: z.string(),
  exitCode: z.optional(z.number()),
  durationMs: z.optional(z.number()),
  output: z.string(),
});

const zFanOutRun = z.object({
  id: z.string(),
  worktreeId: z.string(),
  agentId: z.string(),
  sessionKey: z.optional(z.string()),
  startedAt: z.optional(z.number()),
  endedAt: z.optional(z.number()),
  status: z.enum(['starting', 'running', 'waiting', 'done', 'failed', 'interrupted', 'merged', 'discarded']),
  error: z.optional(z.string()),
  check: z.optional(zCheck),
});

const zFanOutRecord = z.object({
  id: z.string(),
  prompt: z.string(),
  /** The check command every run is held to (absent: none). */
  check: z.optional(z.string()),
  top: z.string(),
  baseBranch: z.string(),
  baseCommit: z.string(),
  createdAt: z.number(),
  runs: z.array(zFanOutRun),
  /** The id of the run that was merged. */
  merged: z.optional(z.string()),
});

/** The file: records are checked one by one, so one bad record does not cost the others. */
const zFile = z.object({
  version: z.number(),
  worktrees: z.array(z.unknown()),
  fanOuts: z.array(z.unknown()),
});

/** A worktree Switchboard made for a session. */
export type WorktreeRecord = z.output<typeof zWorktreeRecord>;
/** One prompt run by several agents, each in its own worktree. */
export type FanOutRecord = z.output<typeof zFanOutRecord>;
/** One agent's run of a fan-out. */
export type FanOutRun = FanOutRecord['runs'][number];

const version = 1;

/** The worktree and fan-out records, in memory and in `file`. */
export class WorktreeRecords {
  private wts: WorktreeRecord[] = [];
  private fos: FanOutRecord[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private seq = 0;

  constructor(
    private readonly file: string,
    /** Told of a file that could not be read as it was (it was kept aside: the error says where). */
    private readonly onProblem?: (error: Error) => void,
  ) {}

  /**
   * Reads the file: a missing one is empty; a corrupt one is kept aside and reported (to `onProblem`, and
   * returned). Never throws.
   */
  async load(): Promise<Error | undefined> {
    this.wts = [];
    this.fos = [];
    let text: string;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return this.report(new Error(`the worktree records ${this.file} could not be read: ${(error as Error).message}`));
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return this.keepAside('rename', `it is not JSON (${(error as Error).message})`);
    }
    const parsed = zFile.safeParse(raw);
    if (!parsed.success) return this.keepAside('rename', `it is not a record file (${issues(parsed.error)})`);
    const bad: string[] = [];
    const pick = <T>(schema: z.ZodMiniType<T>, items: unknown[], what: string): T[] => items.flatMap((item, i) => {
      const r = schema.safeParse(item);
      if (r.success) return [r.data];
      bad.push(`${what}[${i}]: ${issues(r.error)}`);
      return [];
    });
    this.wts = pick(zWorktreeRecord, parsed.data.worktrees, 'worktrees');
    this.fos = pick(zFanOutRecord, parsed.data.fanOuts, 'fanOuts');
    return bad.length ? this.keepAside('copy', `${bad.length} record(s) are invalid and were left out: ${bad.slice(0, 3).join(' | ')}`) : undefined;
  }

  worktrees(): readonly WorktreeRecord[] {
    return this.wts;
  }

  fanOuts(): readonly FanOutRecord[] {
    return this.fos;
  }

  /** The record of the worktree at `p` (compared as resolved paths). */
  byPath(p: string): WorktreeRecord | undefined {
    const want = path.resolve(p);
    return this.wts.find((w) => path.resolve(w.path) === want);
  }

  /** The record of the worktree session `key` runs in (an active one first). */
  bySession(key: string): WorktreeRecord | undefined {
    const mine = this.wts.filter((w) => w.sessionKey === key);
    return mine.find((w) => w.state === 'active') ?? mine[mine.length - 1];
  }

  fanOut(id: string): FanOutRecord | undefined {
    return this.fos.find((f) => f.id === id);
  }

  /** Adds a worktree record, or replaces the one with its id. */
  put(rec: WorktreeRecord): void {
    this.wts = upsert(this.wts, rec);
  }

  /** Adds a fan-out record, or replaces the one with its id. */
  putFanOut(rec: FanOutRecord): void {
    this.fos = upsert(this.fos, rec);
  }

  /** Drops the worktree or fan-out record `id`; false when there was none. */
  remove(id: string): boolean {
    const before = this.wts.length + this.fos.length;
    this.wts = this.wts.filter((w) => w.id !== id);
    this.fos = this.fos.filter((f) => f.id !== id);
    return this.wts.length + this.fos.length !== before;
  }

  /** Writes the records as they are when this save's turn comes (after any save before it). */
  save(): Promise<void> {
    const run = this.queue.then(() => this.write());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    const text = `${JSON.stringify({ version, worktrees: this.wts, fanOuts: this.fos }, null, 1)}\n`;
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp-${process.pid}-${++this.seq}`;
    try {
      await fs.promises.writeFile(tmp, text);
      await fs.promises.rename(tmp, this.file);
    } catch (error) {
      await fs.promises.rm(tmp, { force: true });
      throw error;
    }
  }

  /** Keeps the file as it was beside it (renamed, or copied when the good records stay in use) and reports why. */
  private async keepAside(how: 'rename' | 'copy', why: string): Promise<Error> {
    const stamp = `${this.file}.corrupt-${Date.now()}`;
    let aside = stamp;
    for (let n = 2; fs.existsSync(aside); n++) aside = `${stamp}-${n}`; // never over an earlier one
    try {
      await (how === 'rename' ? fs.promises.rename(this.file, aside) : fs.promises.copyFile(this.file, aside));
    } catch (error) {
      return this.report(new Error(`the worktree records ${this.file} were not read: ${why}; keeping a copy failed too (${(error as Error).message})`));
    }
    return this.report(new Error(`the worktree records ${this.file} were not read as they were: ${why}; the file was kept as ${aside}`));
  }

  private report(error: Error): Error {
    this.onProblem?.(error);
    return error;
  }
}

function issues(error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] }): string {
  return error.issues.map((x) => `${x.path.map(String).join('.') || 'record'}: ${x.message}`).join('; ');
}

function upsert<T extends { readonly id: string }>(list: readonly T[], rec: T): T[] {
  const i = list.findIndex((x) => x.id === rec.id);
  return i === -1 ? [...list, rec] : list.map((x, j) => (j === i ? rec : x));
}
