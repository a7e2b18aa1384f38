/**
 * `fs/read_text_file` and `fs/write_text_file` through the editor (https://agentclientprotocol.com/protocol/file-system):
 * - reads come from the open `TextDocument` when there is one (unsaved edits win), else from disk;
 *   `line`/`limit` slice without copying the whole text;
 * - writes to an open file are a `WorkspaceEdit` then a save (Undo works, the user sees it); other files
 *   are written with `workspace.fs`, creating missing folders; the first write of each file in the session
 *   records what was there before (ChangeTracker, for ACP: Review Changes);
 * - every path is normalized, its symlinks resolved, and checked against the session's roots (cwd, additional directories, workspace folders):
 *   outside them the setting `switchboard.files.outsideRoots` decides, asking the user through
 *   {@link FsHandler.consent}.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError, AcpErrorCodes } from '../../acp/errors';
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest, WriteTextFileResponse } from '../../acp/schema/types.gen';
import type { ChangeTracker, FileBefore } from './changeTracker';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { askBeforeWrite, refuseByRule, refuseWrite } from './writeGrant';
import { createMissingFolders, findLiveDocument, fsFailure, replaceDocumentText, statOrUndefined } from './editorFiles';
import { modalPathConsent } from './pathConsent';
import type { PathConsent } from './pathConsent';
import { decideOutsideRoots, normalizeAgentPath, parseOutsideRootsPolicy, platformCaseInsensitive, resolveRealPath } from './pathPolicy';
import type { FileOperation } from './pathPolicy';
import type { SessionContext } from '../sessionContext';
import { SessionRoots } from './sessionRoots';
import { lineWindow, notTextMessage, readTextWindow } from './textSlice';
import type { LineWindow } from './textSlice';

/** A file the agent named, after normalization and the boundary check. */
interface AgentFile {
  /** The absolute path as the agent gave it, normalized (`..` resolved). */
  readonly path: string;
  /** The real path (symlinks resolved): where the operation happens. */
  readonly real: string;
  readonly uri: vscode.Uri;
}

const utf8Bom = [0xef, 0xbb, 0xbf];
/** Files larger than this are not read from disk (the whole file would be held in the extension host's memory). */
const maxReadBytes = 256 * 2 ** 20;

/** Serves the agent's file requests for one session. */
export class FsHandler implements vscode.Disposable {
  /** What this handler implements, advertised in `initialize` as `clientCapabilities.fs`. */
  static readonly capabilities = { readTextFile: true, writeTextFile: true } as const;

  /** Asks the user about files outside the session's folders (tests replace it). */
  consent: PathConsent = modalPathConsent;
  private readonly _roots: SessionRoots;
  /** Outside paths the user allowed to read in this session (or is being asked about), by real path. */
  private readonly _reads = new Map<string, Promise<boolean>>();
  /** The write in progress per real path: writes of one file run one after the other. */
  private readonly _writes = new Map<string, Promise<unknown>>();

  constructor(readonly ctx: SessionContext, readonly changes: ChangeTracker, readonly permissions: PermissionBroker) {
    this._roots = new SessionRoots(ctx);
  }

  /** The session's additional directories changed: the roots are resolved again at the next request. */
  rootsChanged(): void {
    this._roots.reset();
  }

  /** `fs/read_text_file`: the editor's text (unsaved edits included) or the file on disk, windowed by `line`/`limit`. */
  async readTextFile(p: ReadTextFileRequest, token: CancellationToken): Promise<ReadTextFileResponse> {
    const file = await this.authorize(p.path, 'read', token);
    const window = lineWindow(p.line, p.limit);
    const doc = await findLiveDocument([file.path, file.real], file.uri).catch((e: unknown) => { throw toAcpError(e, file, 'read'); });
    if (doc) return { content: documentWindow(doc, window) };
    const stat = await statOrThrow(file, 'read');
    if (!stat) throw AcpError.resourceNotFound(file.path);
    if (stat.type & vscode.FileType.Directory) throw AcpError.invalidParams(`Cannot read ${file.path}: it is a folder, not a file`, { path: file.path, reason: 'isDirectory' });
    if (stat.size > maxReadBytes) {
      throw AcpError.invalidParams(`Cannot read ${file.path}: it is too large to read as text (${Math.round(stat.size / 2 ** 20)} MB; the limit is ${maxReadBytes / 2 ** 20} MB)`, { path: file.path, reason: 'tooLarge' });
    }
    const bytes = await vscode.workspace.fs.readFile(file.uri).then(undefined, (error: unknown) => { throw toAcpError(error, file, 'read'); });
    checkCancelled(token);
    const result = readTextWindow(bytes, window);
    if ('reason' in result) throw AcpError.invalidParams(notTextMessage(file.path, result.reason), { path: file.path, reason: result.reason });
    return { content: result.text };
  }

  /**
   * `fs/write_text_file`: through the editor when the file is open, else on disk (creating folders). The user's
   * answers bind (src/host/permissions/grantLedger.ts): a file they refused is refused, and a write no answer covers
   * is asked about (outside the roots, the outside-roots question asks every write).
   */
  async writeTextFile(p: WriteTextFileRequest, token: CancellationToken): Promise<WriteTextFileResponse> {
    const file = await locate(p.path);
    const grant = this.permissions.grants.write([file.path, file.real]);
    if (grant.kind === 'refused') throw refuseWrite(this.ctx, file.path);
    // a deny rule refuses every write of the file; an allow rule covers a write that no answer covers
    const ruling = await this.permissions.rules.write(file.path, file.real);
    if (ruling.verdict?.action === 'deny') {
      this.permissions.rules.matched(ruling);
      throw refuseByRule(this.ctx, file.path, ruling.verdict);
    }
    const inside = await this.checkRoots(file, 'write', token);
    const ruled = grant.kind === 'uncovered' && ruling.verdict?.action === 'allow';
    if (ruled) this.permissions.rules.matched(ruling);
    const ask = ruling.verdict?.action === 'ask' || this.permissions.uncoveredPolicy() === 'ask';
    if (inside && grant.kind === 'uncovered' && !ruled && ask) {
      await askBeforeWrite(this, { path: file.path, uri: file.uri, content: p.content, sessionId: p.sessionId }, token);
    }
    const key = platformCaseInsensitive ? file.real.toLowerCase() : file.real;
    const previous = this._writes.get(key) ?? Promise.resolve();
    const write = previous.then(() => {
      checkCancelled(token);
      return this.write(file, p.content);
    });
    const tail = write.catch(() => undefined);
    this._writes.set(key, tail);
    void tail.then(() => { if (this._writes.get(key) === tail) this._writes.delete(key); });
    await write;
    this.permissions.audit.clientWrote([file.path, file.real]);
    return {};
  }

  dispose(): void {
    this._reads.clear();
  }

  private async write(file: AgentFile, content: string): Promise<void> {
    const doc = await findLiveDocument([file.path, file.real], file.uri).catch((e: unknown) => { throw toAcpError(e, file, 'write'); });
    if (doc) {
      const before = doc.getText();
      try {
        await replaceDocumentText(doc, content);
      } finally {
        // recorded even when only the save failed: the buffer changed
        if (doc.getText() !== before) this.changes.recordBeforeWrite(file.uri, { kind: 'text', text: before });
      }
      this.ctx.log.info(`fs: wrote ${file.real} through the editor`);
      return;
    }
    const stat = await statOrThrow(file, 'write');
    if (stat && stat.type & vscode.FileType.Directory) throw AcpError.invalidParams(`Cannot write ${file.path}: it is a folder`, { path: file.path, reason: 'isDirectory' });
    const before: FileBefore = stat
      ? { kind: 'bytes', bytes: await vscode.workspace.fs.readFile(file.uri).then(undefined, (e: unknown) => { throw toAcpError(e, file, 'write'); }) }
      : { kind: 'missing' };
    const folders = stat ? [] : await createMissingFolders(path.dirname(file.real)).catch((e: unknown) => { throw toAcpError(e, file, 'write'); });
    this.changes.recordCreatedFolders(folders);
    let bytes = new TextEncoder().encode(content);
    if (before.kind === 'bytes' && utf8Bom.every((b, i) => before.bytes[i] === b) && !content.startsWith('\ufeff')) {
      const withBom = new Uint8Array(utf8Bom.length + bytes.length); // keep the file's byte order mark
      withBom.set(utf8Bom);
      withBom.set(bytes, utf8Bom.length);
      bytes = withBom;
    }
    await vscode.workspace.fs.writeFile(file.uri, bytes).then(undefined, (e: unknown) => { throw toAcpError(e, file, 'write'); });
    this.changes.recordBeforeWrite(file.uri, before);
    this.ctx.log.info(`fs: ${stat ? 'wrote' : 'created'} ${file.real}${folders.length ? ` (and ${folders.length} folder(s))` : ''}`);
  }

  /** Normalizes the agent's path and applies the boundary policy; throws the refusal. */
  private async authorize(requested: string, op: FileOperation, token: CancellationToken): Promise<AgentFile> {
    const file = await locate(requested);
    await this.checkRoots(file, op, token);
    return file;
  }

  /**
   * The boundary policy for a located file: true when it is inside the session's folders, false when the user or
   * the setting let the agent go outside them this time; throws the refusal.
   */
  private async checkRoots(file: AgentFile, op: FileOperation, token: CancellationToken): Promise<boolean> {
    const { path: normalized, real } = file;
    if (await this._roots.contains(real)) return true;
    const policy = parseOutsideRootsPolicy(vscode.workspace.getConfiguration('switchboard').get('files.outsideRoots'));
    const readKey = platformCaseInsensitive ? real.toLowerCase() : real;
    // a read the user allowed earlier, or is being asked about right now (one question for both)
    const prior = op === 'read' ? this._reads.get(readKey) : undefined;
    const priorAnswer = prior !== undefined && (await prior);
    const decision = decideOutsideRoots(policy, op, priorAnswer);
    if (decision === 'allow') return false;
    if (decision === 'deny') {
      this.ctx.log.info(`fs: refused to ${op} ${normalized}: outside the session's folders (setting "deny")`);
      throw AcpError.accessDenied(`Access denied by the setting switchboard.files.outsideRoots ("deny"): ${normalized} is outside the session's folders`, normalized, 'outsideRoots');
    }
    let allowed = false;
    if (prior === undefined) {
      const question = this.ask(op, file);
      if (op === 'read') {
        this._reads.set(readKey, question);
        void question.then((ok) => { if (!ok) this._reads.delete(readKey); }, () => this._reads.delete(readKey));
      }
      allowed = await question;
    }
    checkCancelled(token);
    if (!allowed) {
      this.ctx.log.info(`fs: the user refused to let the agent ${op} ${normalized}`);
      throw AcpError.accessDenied(`Access denied by the user: ${normalized} is outside the session's folders`, normalized, 'deniedByUser');
    }
    return false;
  }

  private async ask(op: FileOperation, file: AgentFile): Promise<boolean> {
    return this.consent.ask({ agentName: this.ctx.agentName, op, path: file.path, realPath: file.real, roots: this._roots.declared });
  }
}

/** The agent's path normalized (`..` resolved, a relative one refused) and its real path (symlinks resolved). */
async function locate(requested: string): Promise<AgentFile> {
  const normalized = normalizeAgentPath(requested);
  const real = await resolveRealPath(normalized);
  return { path: normalized, real, uri: vscode.Uri.file(real) };
}

/** The text of a window of an open document, from the start of its first line to the start of the line after it. */
function documentWindow(doc: vscode.TextDocument, w: LineWindow): string {
  if (w.first === 0 && w.count === undefined) return doc.getText();
  if (w.first >= doc.lineCount || w.count === 0) return '';
  const endLine = w.count === undefined ? doc.lineCount : w.first + w.count;
  const end = endLine >= doc.lineCount ? doc.lineAt(doc.lineCount - 1).range.end : new vscode.Position(endLine, 0);
  return doc.getText(new vscode.Range(w.first, 0, end.line, end.character));
}

/** The stat of a file (undefined when missing), with other failures as errors for the agent. */
async function statOrThrow(file: AgentFile, op: FileOperation): Promise<vscode.FileStat | undefined> {
  return statOrUndefined(file.uri).catch((error: unknown) => { throw toAcpError(error, file, op); });
}

/** A `workspace.fs` failure as an error for the agent that names the path. */
function toAcpError(error: unknown, file: AgentFile, op: FileOperation): AcpError {
  if (AcpError.is(error)) return error;
  const verb = op === 'read' ? 'read' : 'write';
  switch (fsFailure(error)) {
    case 'notFound': return AcpError.resourceNotFound(file.path);
    case 'isDirectory': return AcpError.invalidParams(`Cannot ${verb} ${file.path}: it is a folder, not a file`, { path: file.path, reason: 'isDirectory' });
    case 'notDirectory': return AcpError.invalidParams(`Cannot ${verb} ${file.path}: a part of the path is a file, not a folder`, { path: file.path });
    case 'noPermissions': return AcpError.accessDenied(`Cannot ${verb} ${file.path}: the file system denied access`, file.path, 'noPermissions');
    default: return new AcpError('remote', `Cannot ${verb} ${file.path}: ${error instanceof Error ? error.message : String(error)}`, AcpErrorCodes.InternalError, { path: file.path });
  }
}

function checkCancelled(token: CancellationToken): void {
  if (token.isCancellationRequested) throw AcpError.cancelled();
}
