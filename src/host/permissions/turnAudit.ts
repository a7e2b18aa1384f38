/**
 * The audit of a session's turns (docs/approvals.md, "The audit"): what happened, compared with what was requested
 * and granted. What happened is the files changed on disk between the turn's two checkpoints (which also covers an
 * agent that writes files itself), the writes through `fs/write_text_file` and the commands run through
 * `terminal/create`. An effect that no answer or rule covers is flagged, in the chat and the Sessions view, and can
 * be reverted from the checkpoint. No vscode import: unit-tested in plain Node.
 *
 * Flagged:
 * - a file changed on disk that no request or rule covered for writing, and that Switchboard did not write itself
 *   (a write without a request; one behind a request that only read it);
 * - a file changed after the user rejected a request that names it;
 * - a request that declares itself a read (its kind) while what it carries is a command or a write.
 *
 * Not flagged: the files written through `fs/write_text_file` (each was checked before it was written), and while a
 * command the user (or a rule, or the user's `switchboard.permissions.uncoveredActions: "allow"`) allowed ran in the
 * turn, the files changed on disk: what an allowed command changes is what the user allowed. A command never runs
 * without one of those (a different command than the one approved is always asked about: commandGrant.ts).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { platformCaseInsensitive } from '../files/pathPolicy';
import type { GrantLedger } from './grantLedger';

/** Why an effect is flagged. */
export type FlagKind = 'unrequested' | 'afterReject' | 'behindRead' | 'mismatch';

/** One flagged effect. */
export interface AuditFlag {
  readonly kind: FlagKind;
  /** The file (absolute), for the effects on files. */
  readonly path?: string;
  /** What it is, in words: "notes.txt was written without a request". */
  readonly text: string;
}

/** A file changed in the turn, as the checkpoints saw it. */
export interface ChangedFile {
  /** Absolute (the real path, under a real root). */
  readonly path: string;
  /** Relative to its root, `/`-separated (for the text). */
  readonly rel: string;
  readonly change: 'created' | 'modified' | 'deleted';
}

const key = (p: string) => (platformCaseInsensitive ? p.toLowerCase() : p);

/**
 * Files Switchboard itself writes outside any session (a rule saved in the workspace's settings while a turn runs),
 * with a digest of the bytes it left there: not the turn's changes while they still hold those bytes, so the turn's
 * changes (src/host/files/turnCheckpoints.ts) leave them out before the audit sees them. A later change by anyone
 * else is audited like any other. Shared by the whole extension host.
 */
const ownWrites = new Map<string, string>();

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Switchboard wrote this file itself (its real path), e.g. `.vscode/settings.json` when a rule is saved; `bytes`: what it holds now. */
export function noteOwnWrite(realPath: string, bytes: Uint8Array): void {
  ownWrites.set(key(realPath), digest(bytes));
}

/** True when the file (its real path) holds what Switchboard wrote there last. */
export async function isOwnWrite(realPath: string): Promise<boolean> {
  const wrote = ownWrites.get(key(realPath));
  if (wrote === undefined) return false;
  try {
    return digest(await fs.promises.readFile(realPath)) === wrote;
  } catch {
    return false; // deleted since
  }
}
const verbs: Readonly<Record<ChangedFile['change'], string>> = { created: 'created', modified: 'changed', deleted: 'deleted' };

/** The audit of one session. */
export class TurnAudit {
  private _clientWrites = new Set<string>();
  private _allowedCommandRan = false;
  private _turnFlags: AuditFlag[] = [];
  private _open: AuditFlag[] = [];
  private _from: string | undefined;

  /** The flagged effects on files not reverted yet (the newest turn's), for the Sessions view and Revert. */
  get open(): readonly AuditFlag[] {
    return this._open;
  }

  /** The checkpoint before the turn of the open flags (Revert restores their files from it). */
  get openFrom(): string | undefined {
    return this._from;
  }

  /** A turn starts: what the last one recorded is forgotten (its flags stay open until reverted or a new audit). */
  startTurn(): void {
    this._clientWrites = new Set();
    this._allowedCommandRan = false;
    this._turnFlags = [];
  }

  /** Switchboard wrote the file (`fs/write_text_file`), after its checks: its normalized and real paths. */
  clientWrote(paths: readonly string[]): void {
    for (const p of paths) this._clientWrites.add(key(p));
  }

  /** A command started through `terminal/create` (an answer, a rule or the user's setting allowed it). */
  commandRan(): void {
    this._allowedCommandRan = true;
  }

  /** A request declared itself a read while it carries a command or a write. */
  mismatch(title: string, carries: 'a command' | 'a write', declared: string): void {
    const shown = title.length > 80 ? `${title.slice(0, 79)}…` : title;
    this._turnFlags.push({ kind: 'mismatch', text: `"${shown}" was declared a ${declared} but carries ${carries}` });
  }

  /**
   * The turn ended: its flags, the changed files checked against the answers (`grants`) and the write rules
   * (`ruleAllows`). The flags on files become the open ones.
   */
  async endTurn(changed: readonly ChangedFile[], from: string | undefined, grants: GrantLedger, ruleAllows: (path: string) => Promise<boolean>): Promise<AuditFlag[]> {
    const flags = [...this._turnFlags];
    const onFiles: AuditFlag[] = [];
    for (const f of changed) {
      if (this._clientWrites.has(key(f.path))) continue;
      const decision = grants.write([f.path]);
      if (decision.kind === 'refused') {
        onFiles.push({ kind: 'afterReject', path: f.path, text: `${f.rel} was ${verbs[f.change]} after you rejected a request that names it` });
        continue;
      }
      if (decision.kind === 'allowed' || this._allowedCommandRan || await ruleAllows(f.path)) continue;
      onFiles.push(grants.readOnly([f.path])
        ? { kind: 'behindRead', path: f.path, text: `${f.rel} was ${verbs[f.change]} behind a request you allowed only to read it` }
        : { kind: 'unrequested', path: f.path, text: `${f.rel} was ${verbs[f.change]} without a request (by the agent's own process, or another program)` });
    }
    this._open = onFiles;
    this._from = onFiles.length > 0 ? from : undefined;
    this._turnFlags = [];
    return [...flags, ...onFiles];
  }

  /** The open flags were reverted (or the user dismissed them). */
  resolve(): void {
    this._open = [];
    this._from = undefined;
  }
}

/** The chat's notice of a turn's flags. */
export function flagsNotice(agentName: string, flags: readonly AuditFlag[]): string {
  const n = flags.length;
  return `Switchboard flagged ${n} ${n === 1 ? 'effect' : 'effects'} of this turn of ${agentName} that no answer or rule of yours covers: ${flags.map((f) => f.text).join('; ')}.`;
}
