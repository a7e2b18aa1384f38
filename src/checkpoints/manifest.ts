/**
 * The record of one session's checkpoints, kept as a JSON file in the checkpoint store (one per session):
 * which checkpoints exist, what each is for (before a turn, at its end, before a restore), the commit of
 * each root, what they skipped, and the changed-files bar's kept files. Read back through a zod schema: a file
 * that does not match (torn, or written by another version) is treated as empty, never trusted.
 */
import * as fs from 'node:fs';
import * as z from 'zod/mini';

/** Why a checkpoint was taken. */
export type CheckpointKind = 'turn' | 'end' | 'restore';

const skippedSchema = z.object({ path: z.string(), reason: z.enum(['size', 'repository', 'unreadable']), bytes: z.optional(z.number()) });

const checkpointSchema = z.object({
  id: z.string().check(z.regex(/^c\d+$/)),
  kind: z.enum(['turn', 'end', 'restore']),
  /** `turn`: the user message it was taken before; `end`: the user message of the turn it ended. */
  entryId: z.optional(z.string()),
  createdAt: z.number(),
  /** The commit of each root (real path) in that root's shadow repository. */
  commits: z.record(z.string(), z.string().check(z.regex(/^[0-9a-f]{40,64}$/))),
  /** What each root's snapshot left out, relative to the root. */
  skipped: z.record(z.string(), z.array(skippedSchema)),
});

/** One checkpoint of a session. */
export type Checkpoint = z.infer<typeof checkpointSchema>;

const manifestSchema = z.object({
  v: z.literal(1),
  key: z.string(),
  next: z.int().check(z.nonnegative()),
  checkpoints: z.array(checkpointSchema),
  /**
   * The changed-files bar's baseline per file where the user kept a change (absolute path → its blob then, or
   * null for "did not exist"); every other file compares with its content before the first turn that changed it.
   */
  kept: z.record(z.string(), z.nullable(z.object({ blob: z.string(), mode: z.string() }))),
});

/** The record of a session's checkpoints. */
export type Manifest = z.infer<typeof manifestSchema>;

/** An empty record for a session. */
export function emptyManifest(key: string): Manifest {
  return { v: 1, key, next: 1, checkpoints: [], kept: {} };
}

/** Reads a session's record; an empty one when the file is missing or does not match the schema. */
export function readManifest(file: string, key: string): Manifest {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (parsed.success && parsed.data.key === key) return parsed.data;
  } catch {
    // missing or torn
  }
  return emptyManifest(key);
}

/** Reads a record without knowing its session (pruning walks every session's file); undefined when not valid. */
export function readAnyManifest(file: string): Manifest | undefined {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a record atomically (a temporary file renamed over it). */
export function writeManifest(file: string, m: Manifest): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(m));
  fs.renameSync(tmp, file);
}
