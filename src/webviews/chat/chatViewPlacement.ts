/**
 * Puts the Chat view in the secondary side bar on VS Code versions that cannot contribute it there.
 * VS Code 1.106 added `contributes.viewsContainers.secondarySidebar` (package.json uses it); older versions
 * ignore that key and put the views of the unknown container in the Explorer. There, before Switchboard
 * shows the view for the first time, the view is moved once with the workbench's `vscode.moveViews` into
 * the secondary side bar's Chat container; VS Code remembers the new place, and a later move by the user is
 * left alone (the move is done once per profile).
 */
import * as vscode from 'vscode';
import { chatViewId } from '../../constants';
import { lacksSecondarySidebar } from './chatPlacement';

/** The container VS Code (before 1.106) has in the secondary side bar. */
export const auxiliaryChatContainerId = 'workbench.panel.chat';

const movedKey = 'switchboard.chatView.movedToSecondarySideBar';

/** Moves the view once, where needed (see the file header). */
export async function placeChatView(state: vscode.Memento, log: vscode.LogOutputChannel): Promise<void> {
  if (!lacksSecondarySidebar(vscode.version) || state.get<boolean>(movedKey, false)) return;
  await state.update(movedKey, true);
  try {
    await vscode.commands.executeCommand('vscode.moveViews', { viewIds: [chatViewId], destinationId: auxiliaryChatContainerId });
  } catch (error) {
    log.warn(`could not move the Chat view to the secondary side bar: ${error instanceof Error ? error.message : String(error)}`);
  }
}
