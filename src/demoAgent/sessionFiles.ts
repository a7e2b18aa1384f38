import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { configOptionSchema, modeStateSchema } from './acpShapes';

/**
 * Keeps an agent's sessions across its runs (the Demo agent: a window reload starts a new process, and
 * `session/resume` / `session/load` must still find the session). One JSON file per session in a folder
 * the client names; every write goes to a temporary file that is then renamed over the old one (atomic),
 * every read is validated and a file that does not parse is skipped, and both the number of files and
 * the size of each are capped.
 */

/** At most this many sessions are kept; the least recently written go first. */
export const maxSessionFiles = 50;
/** A session file is kept under this size: the oldest updates of its history are dropped to fit. */
export const maxSessionFileBytes = 512 * 1024;

const updateSchema = z.looseObject({ sessionUpdate: z.string() });

const persistedSchema = z.object({
  v: z.literal(1),
  sessionId: z.string().min(1),
  cwd: z.string(),
  additionalDirectories: z.array(z.string()).optional(),
  title: z.string().nullable().optional(),
  updatedAt: z.string().nullable(),
  prompts: z.number().int().nonnegative(),
  archived: z.boolean().optional(),
  modes: modeStateSchema.optional(),
  configOptions: z.array(configOptionSchema).optional(),
  history: z.array(updateSchema),
});

/** What is kept of one session. */
export type PersistedSession = z.infer<typeof persistedSchema>;

const chunkKinds = new Set(['agent_message_chunk', 'agent_thought_chunk']);

/** The text of a text chunk update, or undefined for any other update. */
function chunkText(update: Record<string, unknown>): string | undefined {
  if (typeof update.sessionUpdate !== 'string' || !chunkKinds.has(update.sessionUpdate)) return undefined;
  const content = update.content as { type?: unknown; text?: unknown } | undefined;
  return content?.type === 'text' && typeof content.text === 'string' ? content.text : undefined;
}

/**
 * The history with consecutive text chunks of one message joined (same kind and `messageId`): a streamed
 * answer is kept as one update, and `session/load` replays it as one.
 */
export function compactHistory(history: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const update of history) {
    const text = chunkText(update);
    const last = out.at(-1);
    const lastText = last && chunkText(last);
    if (text !== undefined && last && lastText !== undefined && last.sessionUpdate === update.sessionUpdate && last.messageId === update.messageId) {
      out[out.length - 1] = { ...last, content: { type: 'text', text: lastText + text } };
    } else {
      out.push(update);
    }
  }
  return out;
}

/** The session files in one folder. Never throws: a failure is logged and the session lives on in memory. */
export class SessionFiles {
  constructor(readonly dir: string, private readonly log: (line: string) => void) {}

  /** Every readable session, least recently written first. */
  loadAll(): PersistedSession[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return []; // no folder yet
    }
    const found: Array<{ session: PersistedSession; mtime: number }> = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      const session = this.readFile(file);
      if (session) found.push({ session, mtime: statTime(file) });
    }
    return found.sort((a, b) => a.mtime - b.mtime).map((f) => f.session);
  }

  /** One session, or undefined when it is not kept (or its file is not valid). */
  load(sessionId: string): PersistedSession | undefined {
    const file = this.fileOf(sessionId);
    return fs.existsSync(file) ? this.readFile(file) : undefined;
  }

  /** Writes a session (atomically), then removes the oldest files beyond {@link maxSessionFiles}. */
  save(session: PersistedSession): void {
    const file = this.fileOf(session.sessionId);
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(temp, fitted(session));
      fs.renameSync(temp, file);
    } catch (error) {
      this.log(`session ${session.sessionId} could not be saved: ${String(error)}`);
      fs.rmSync(temp, { force: true });
      return;
    }
    this.prune();
  }

  /** Forgets a session. */
  remove(sessionId: string): void {
    try {
      fs.rmSync(this.fileOf(sessionId), { force: true });
    } catch (error) {
      this.log(`session ${sessionId} could not be removed: ${String(error)}`);
    }
  }

  private fileOf(sessionId: string): string {
    // any id a client sends maps to one plain file name inside the folder
    return path.join(this.dir, `${Buffer.from(sessionId, 'utf8').toString('base64url')}.json`);
  }

  private readFile(file: string): PersistedSession | undefined {
    try {
      if (fs.statSync(file).size > maxSessionFileBytes * 2) throw new Error('too large');
      const parsed = persistedSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
      if (path.basename(file) !== path.basename(this.fileOf(parsed.data.sessionId))) throw new Error('the file name does not match the session id');
      return parsed.data;
    } catch (error) {
      this.log(`skipped the session file ${path.basename(file)}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private prune(): void {
    try {
      const files = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json')).map((n) => path.join(this.dir, n));
      if (files.length <= maxSessionFiles) return;
      const oldest = files.map((f) => ({ f, t: statTime(f) })).sort((a, b) => a.t - b.t).slice(0, files.length - maxSessionFiles);
      for (const { f } of oldest) fs.rmSync(f, { force: true });
    } catch (error) {
      this.log(`old session files could not be removed: ${String(error)}`);
    }
  }
}

/** The JSON of a session, its history compacted and its oldest updates dropped until it fits the cap. */
function fitted(session: PersistedSession): string {
  let history = compactHistory(session.history) as PersistedSession['history'];
  let text = JSON.stringify({ ...session, history });
  while (Buffer.byteLength(text) > maxSessionFileBytes && history.length > 0) {
    history = history.slice(Math.max(1, Math.ceil(history.length / 4)));
    text = JSON.stringify({ ...session, history });
  }
  return text;
}

function statTime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
