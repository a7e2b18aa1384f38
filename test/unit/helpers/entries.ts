/**
 * Typed access to a thread's entries in tests: the entry of the kind a test expects (an assertion failure that says
 * what was there instead), never a cast.
 */
import * as assert from 'node:assert/strict';
import { isKind, type EntryKind, type EntryOf } from '../../../src/thread/model/entryKinds';
import type { ThreadEntry } from '../../../src/thread/model/threadEntries';

/** `e`, which must be an entry of `kind`. */
export function entryOf<K extends EntryKind>(e: ThreadEntry | undefined, kind: K): EntryOf<K> {
  assert.ok(e, `expected a ${kind} entry, found none`);
  assert.ok(isKind(e, kind), `expected a ${kind} entry, found a ${e.kind} entry`);
  return e;
}

/** The first entry of `kind` in `entries` that `match` accepts; there must be one. */
export function findEntry<K extends EntryKind>(entries: readonly ThreadEntry[], kind: K, match: (e: EntryOf<K>) => boolean = () => true): EntryOf<K> {
  for (const e of entries) if (isKind(e, kind) && match(e)) return e;
  assert.fail(`no ${kind} entry that matches among ${entries.map((e) => e.kind).join(', ') || 'no entries'}`);
}

/** The text of a message or thought entry. */
export function textOf(e: ThreadEntry | undefined): string {
  assert.ok(e?.kind === 'agent' || e?.kind === 'thought', `expected a message or a thought, found ${e?.kind ?? 'none'}`);
  return e.text;
}
