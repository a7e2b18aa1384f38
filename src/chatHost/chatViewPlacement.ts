/**
 * Puts the Chat view in the secondary side bar. package.json contributes it to Switchboard's own
 * activity bar container, which every supported VS Code accepts: `viewsContainers.secondarySidebar` exists
 * only since 1.106, and older versions show an error notification for a view whose container they do not
 * know. Before Switchboard shows the view for the first time, it is moved once with the workbench's
 * `vscode.moveViews` into the secondary side bar's Chat container; VS Code remembers the new place, and a
 * later move by the user is left alone (the move is done once per profile). Until then the view is hidden
 * (its `when` clause: the setting asks for the side bar, or the context key below), so the Sessions view's
 * container never shows an empty Chat section. See docs/chat.md.
 */
import * as vscode from 'vscode';
import { chatViewId } from '../constants';

/** The workbench's own container in the secondary side bar (its Chat). */
export const auxiliaryChatContainerId = 'workbench.panel.chat';

const movedKey = 'switchboard.chatView.movedToSecondarySideBar';
/** The context key that shows the view once it was placed (package.json `when`). */
const placedContext = 'switchboard.chatViewPlaced';

/** At activation: the view shows where it was placed before (in this profile). */
export function showPlacedChatView(state: vscode.Memento): void {
  if (state.get<boolean>(movedKey, false)) void vscode.commands.executeCommand('setContext', placedContext, true);
}

/** Moves the view once, where needed (see the file header). */
export async function placeChatView(state: vscode.Memento, log: vscode.LogOutputChannel): Promise<void> {
  await vscode.commands.executeCommand('setContext', placedContext, true);
  if (state.get<boolean>(movedKey, false)) return;
  await state.update(movedKey, true);
  try {
    await vscode.commands.executeCommand('vscode.moveViews', { viewIds: [chatViewId], destinationId: auxiliaryChatContainerId });
  } catch (error) {
    log.warn(`could not move the Chat view to the secondary side bar: ${error instanceof Error ? error.message : String(error)}`);
  }
}
