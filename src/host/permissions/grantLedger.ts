/**
 * What the user answered, kept per session, so that an answer binds (docs/approvals.md): the client checks every
 * `fs/write_text_file` and `terminal/create` against the answers, instead of trusting the agent to honour them.
 * No vscode import: unit-tested in plain Node.
 *
 * - The subject of an answer is what the tool call itself says it does (src/thread/view/permissionSubject.ts):
 *   the command line of its `rawInput`, and the paths of its `rawInput`, `locations` and diffs. Never its title or kind.
 * - An answer with a `*_once` option holds until the next turn starts; an `*_always` one for the rest of the session.
 *   The newest answer about a path or command wins, so a rejection after an allowance refuses.
 * - A write of a path the user refused is refused; a command the user refused is refused.
 * - A command that differs from every command the user allowed in this turn is asked about, showing both lines; a
 *   write or command that no answer covers is asked about too (unless the user's setting lets the agent's own
 *   permission flow decide those).
 */
import * as path from 'node:path';
import { asObject, namedPaths, rawCommand, shellQuote } from '../../thread/view/permissionSubject';
import type { SubjectSource } from '../../thread/view/permissionSubject';
import { normalizeAgentPath, platformCaseInsensitive, resolveRealPath } from '../files/pathPolicy';

/** The setting `switchboard.permissions.uncoveredActions`: what to do with a write or command no answer covers. */
export type UncoveredPolicy = 'ask' | 'allow';

/** Reads the setting leniently: anything but `allow` is `ask`. */
export function toUncoveredPolicy(value: unknown): UncoveredPolicy {
  return value === 'allow' ? 'allow' : 'ask';
}

/** How long an answer holds. */
export type GrantScope = 'turn' | 'session';

/** What the ledger says about one write or command. */
export type GrantDecision =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'refused' }
  /** Commands only: the user allowed other command lines in this turn (`approved`, newest first). */
  | { readonly kind: 'differs'; readonly approved: readonly string[] }
  | { readonly kind: 'uncovered' };

/** What one answered tool call is about: its command lines (each in its comparable forms) and its real paths. */
export interface GrantSubject {
  readonly commands: readonly CommandForms[];
  readonly paths: readonly string[];
  /**
   * True when the call writes its paths by its content (a diff, or a `rawInput` with new text) or its kind
   * (edit, delete, move). Allowing a read of a file does not allow writing it; rejecting either refuses both.
   */
  readonly writes: boolean;
}

/** One command line as shown, and the forms it is compared in. */
export interface CommandForms {
  readonly line: string;
  readonly forms: readonly string[];
}

interface Answer {
  readonly allowed: boolean;
  readonly scope: GrantScope;
}

/** Programs whose `-c` argument is the command line itself (`bash -lc 'npm test'` is `npm test`). */
const shells = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash']);

/** A command line with its whitespace runs collapsed (the form lines are compared in). */
function collapse(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

/**
 * The forms in which a command is compared: its argv shell-quoted, its argv as plain words (a `command` that is a
 * whole line), and for a shell's `-c` the script. Two commands are the same when they share a form.
 */
export function commandForms(command: string, args: readonly string[] = []): CommandForms {
  const forms = new Set<string>();
  const quoted = collapse([command, ...args.map(shellQuote)].join(' '));
  forms.add(quoted);
  forms.add(collapse([command, ...args].join(' ')));
  const base = path.basename(command).replace(/\.exe$/i, '').toLowerCase();
  const flag = args.findIndex((a) => /^-[a-z]*c[a-z]*$/i.test(a));
  if (shells.has(base) && flag >= 0 && flag + 1 < args.length) forms.add(collapse(args[flag + 1]));
  return { line: quoted, forms: [...forms].filter((f) => f !== '') };
}

/** The command line of a tool call's `rawInput` in its comparable forms, or undefined when it carries none. */
export function rawInputCommand(rawInput: unknown): CommandForms | undefined {
  const command = rawCommand(rawInput);
  if (!command) return undefined;
  if ('argv' in command) return commandForms(command.argv[0], command.argv.slice(1));
  const line = collapse(command.line);
  return { line, forms: [line] };
}

/** The paths a tool call names (rawInput, locations, diffs), absolute against `cwd`. */
export function subjectPaths(call: SubjectSource, cwd: string): string[] {
  return [...new Set(namedPaths(call).filter((p) => p !== '' && !p.includes('\0')).map((p) => path.resolve(cwd, p)))];
}

/** The subject of an answered tool call: its command and its paths, each path normalized and symlinks resolved. */
export async function grantSubject(call: SubjectSource & { readonly toolKind?: string }, cwd: string): Promise<GrantSubject> {
  const command = rawInputCommand(call.rawInput);
  const paths = new Set<string>();
  for (const p of subjectPaths(call, cwd)) {
    try {
      const normalized = normalizeAgentPath(p);
      paths.add(normalized);
      paths.add(await resolveRealPath(normalized));
    } catch {
      // not a usable path: it covers nothing
    }
  }
  return { commands: command ? [command] : [], paths: [...paths], writes: writesItsPaths(call) };
}

/** Tool kinds that change the files they name. */
const writingKinds = new Set(['edit', 'delete', 'move']);
/** `rawInput` keys that carry text to write (the edit and write tools of common agents). */
export const writeKeys: readonly string[] = [
  'content', 'contents', 'new_string', 'old_string', 'new_str', 'old_str', 'newText', 'new_text', 'oldText', 'old_text',
  'edits', 'patch', 'diff', 'replacement', 'file_text', 'insert_text', 'changes',
];

/**
 * True when a tool call writes the files it names: by its content (a diff, new text in its `rawInput`) or its kind
 * (edit, delete, move). Otherwise it only reads them.
 */
export function writesItsPaths(call: SubjectSource & { readonly toolKind?: string }): boolean {
  return writesByContent(call) || writingKinds.has(call.toolKind ?? '');
}

/** True when a tool call carries something to write: a diff, or new text in its `rawInput`. */
export function writesByContent(call: SubjectSource): boolean {
  if (call.content.some((c) => c.type === 'diff')) return true;
  const input = asObject(call.rawInput);
  return !!input && writeKeys.some((k) => input[k] !== undefined);
}

const pathKey = (p: string) => `path:${platformCaseInsensitive ? p.toLowerCase() : p}`;
const readKey = (p: string) => `read:${platformCaseInsensitive ? p.toLowerCase() : p}`;
const commandKey = (form: string) => `command:${form}`;

/** The answers of one session. */
export class GrantLedger {
  private readonly _answers = new Map<string, Answer>();
  /** Command lines allowed in this turn, newest first (to show beside a different one). */
  private _approvedLines: string[] = [];
  private _sessionWrites = false;
  private _sessionCommands = false;
  private _localCommands = false;

  /** A new turn: answers given once no longer hold. */
  startTurn(): void {
    for (const [key, answer] of [...this._answers]) if (answer.scope === 'turn') this._answers.delete(key);
    this._approvedLines = [];
  }

  /** Forgets every answer, and the writes and commands allowed for the session ("Reset approvals"). */
  reset(): void {
    this._answers.clear();
    this._approvedLines = [];
    this._sessionWrites = false;
    this._sessionCommands = false;
    this._localCommands = false;
  }

  /** The user answered a request about `subject`. */
  record(subject: GrantSubject, allowed: boolean, scope: GrantScope): void {
    const answer: Answer = { allowed, scope };
    if (!allowed || subject.writes) for (const p of subject.paths) this.set(pathKey(p), answer);
    else for (const p of subject.paths) this.set(readKey(p), answer);
    for (const c of subject.commands) {
      for (const f of c.forms) this.set(commandKey(f), answer);
      if (allowed) this._approvedLines = [c.line, ...this._approvedLines.filter((l) => l !== c.line)];
    }
  }

  /** The user allowed every write (or every command) in this session, from the client's own question. */
  allowForSession(what: 'writes' | 'commands' | 'localCommands'): void {
    if (what === 'writes') this._sessionWrites = true;
    else if (what === 'commands') this._sessionCommands = true;
    else this._localCommands = true;
  }

  /** The user agreed that an agent elsewhere runs its commands on this machine in this session (src/host/terminals/commandGrant.ts). */
  get localCommandsAllowed(): boolean { return this._localCommands; }

  /** A write of the file whose normalized and real paths are `paths`. */
  write(paths: readonly string[]): GrantDecision {
    const answers = paths.map((p) => this._answers.get(pathKey(p))).filter((a): a is Answer => a !== undefined);
    if (answers.some((a) => !a.allowed)) return { kind: 'refused' };
    if (answers.length > 0 || this._sessionWrites) return { kind: 'allowed' };
    return { kind: 'uncovered' };
  }

  /** True when an allowed request named the file only to read it (the turn audit's "written behind a read"). */
  readOnly(paths: readonly string[]): boolean {
    return paths.some((p) => this._answers.get(readKey(p))?.allowed === true);
  }

  /** A command about to start. */
  command(command: CommandForms): GrantDecision {
    const answers = command.forms.map((f) => this._answers.get(commandKey(f))).filter((a): a is Answer => a !== undefined);
    if (answers.some((a) => !a.allowed)) return { kind: 'refused' };
    if (answers.length > 0 || this._sessionCommands) return { kind: 'allowed' };
    if (this._approvedLines.length > 0) return { kind: 'differs', approved: [...this._approvedLines] };
    return { kind: 'uncovered' };
  }

  // a newer answer replaces an older one, and moves to the end (the newest answer wins)
  private set(key: string, answer: Answer): void {
    this._answers.delete(key);
    this._answers.set(key, answer);
  }
}
