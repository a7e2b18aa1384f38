/**
 * The user's answers bind the agent's writes (docs/approvals.md): a write of a file the user refused is refused
 * with -32003 and the chat says so; a write that no answer covers is shown as a card of the client's own, with
 * the diff it would make, and runs only when the user allows it.
 */
import * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError } from '../../acp/errors';
import type { ToolCallContent } from '../../acp/schema/types.gen';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { describeRule } from '../permissions/rules/ruleSet';
import type { RuleVerdict } from '../permissions/rules/ruleSet';
import type { SessionContext } from '../sessionContext';
import { findLiveDocument, statOrUndefined } from './editorFiles';
import { readTextWindow } from './textSlice';
import { inert } from '../../shared/inertText';

/** The old text of a file is shown in the question's diff up to this size (a larger file shows no diff). */
const maxDiffBytes = 2 * 2 ** 20;

/** A write about to happen. */
export interface PendingWrite {
  readonly path: string;
  readonly uri: vscode.Uri;
  readonly content: string;
  readonly sessionId: string;
}

/** The refusal of a write of a file the user refused, after a warning in the chat. */
export function refuseWrite(ctx: SessionContext, p: string): AcpError {
  ctx.log.info(`fs: refused the write of ${p}: the user rejected a request that names it`);
  ctx.thread.addNotice('warning', `Switchboard refused ${ctx.agentName}'s write to ${vscode.workspace.asRelativePath(p, false)}: you rejected a request that names this file.`);
  return AcpError.accessDenied(`Access denied by the user: a request that names ${p} was rejected`, p, 'deniedByUser');
}

/** The refusal of a write a deny rule covers, after a warning in the chat. */
export function refuseByRule(ctx: SessionContext, p: string, verdict: RuleVerdict): AcpError {
  ctx.log.info(`fs: refused the write of ${p}: ${describeRule(verdict.rule)} denies it`);
  ctx.thread.addNotice('warning', `Switchboard refused ${ctx.agentName}'s write to ${vscode.workspace.asRelativePath(p, false)}: ${describeRule(verdict.rule)} denies it.`);
  return AcpError.accessDenied(`Access denied by the user's rule: ${describeRule(verdict.rule)} denies writing ${p}`, p, 'deniedByUser');
}

/** Asks the user about a write no answer covers; returns when it is allowed, throws the refusal otherwise. */
export async function askBeforeWrite(handler: { readonly ctx: SessionContext; readonly permissions: PermissionBroker }, w: PendingWrite, token: CancellationToken): Promise<void> {
  const { ctx, permissions } = handler;
  const shown = vscode.workspace.asRelativePath(w.path, false);
  const before = await currentText(w);
  const content: ToolCallContent[] = [
    { type: 'content', content: { type: 'text', text: `${ctx.agentName} writes this file without a request you answered, so Switchboard asks.` } },
    ...(before === undefined ? [] : [{ type: 'diff' as const, path: w.path, oldText: before, newText: w.content }]),
  ];
  const answer = await permissions.askClient({
    sessionId: w.sessionId,
    session: { option: 'Allow writes in this session', allows: 'writes' },
    toolCall: { title: inert.plain`Write ${shown}`, kind: 'edit', locations: [{ path: w.path }], content, rawInput: { path: w.path } },
  }, token);
  if (answer === 'once' || answer === 'session') return;
  if (answer === 'cancelled') throw AcpError.cancelled(`The write of ${w.path} was not answered (the turn was cancelled)`);
  ctx.log.info(`fs: the user refused the write of ${w.path}`);
  throw AcpError.accessDenied(`Access denied by the user: the write of ${w.path} was refused`, w.path, 'deniedByUser');
}

/** The file's text now (the editor's, unsaved edits included), null when it does not exist, undefined when it cannot be shown. */
async function currentText(w: PendingWrite): Promise<string | null | undefined> {
  const doc = await findLiveDocument([w.path, w.uri.fsPath], w.uri).catch(() => undefined);
  if (doc) return doc.getText().length <= maxDiffBytes ? doc.getText() : undefined;
  try {
    const stat = await statOrUndefined(w.uri);
    if (!stat) return null;
    if (stat.size > maxDiffBytes || stat.type & vscode.FileType.Directory) return undefined;
    const result = readTextWindow(await vscode.workspace.fs.readFile(w.uri), { first: 0, count: undefined });
    return 'reason' in result ? undefined : result.text;
  } catch {
    return undefined;
  }
}
