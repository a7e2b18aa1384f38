/**
 * Asking the user whether an agent may read or write a file outside its session's folders
 * (the agent is confined to them unless the user says yes). The question is an interface so that tests
 * can answer it; the default is a modal dialog.
 */
import * as vscode from 'vscode';
import type { FileOperation } from './pathPolicy';
import { inert } from '../../shared/inertText';

/** One question: may `agentName` do `op` on `path` (outside the roots)? */
export interface PathConsentRequest {
  readonly agentName: string;
  readonly op: FileOperation;
  /** The path as the agent asked for it (normalized). */
  readonly path: string;
  /** The real path, when a symlink makes it differ from `path`. */
  readonly realPath: string;
  /** The session's folders, to tell the user where the agent may go without asking. */
  readonly roots: readonly string[];
}

/** Answers {@link PathConsentRequest}s: true allows this one request. */
export interface PathConsent {
  ask(request: PathConsentRequest): Promise<boolean>;
}

/** The default: a modal warning naming the agent, the operation and the full path. */
export const modalPathConsent: PathConsent = {
  async ask(r) {
    const verb = r.op === 'read' ? 'read' : 'write';
    const where = r.realPath !== r.path ? `${r.path}\n(a link to ${r.realPath})` : r.path;
    const folders = r.roots.length ? `\n\nThe session's folders:\n${r.roots.join('\n')}` : '';
    const memo = r.op === 'read'
      ? 'If you allow it, later reads of this file in this session will not ask again.'
      : 'Every write outside the session\'s folders asks.';
    const detail = `${where}${folders}\n\n${memo} (Setting: Switchboard › Files: Outside Roots)`;
    const allow = r.op === 'read' ? 'Allow Reading' : 'Allow Writing';
    const answer = await vscode.window.showWarningMessage(
      inert.message`${r.agentName} wants to ${verb} a file outside the session's folders.`, { modal: true, detail }, allow);
    return answer === allow;
  },
};
