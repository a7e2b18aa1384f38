/**
 * The composer takes the keyboard when the chat gets it. After New Session, Switch Session or a return to
 * the chat's tab, VS Code focuses the webview and the page body had the focus: typed text went nowhere, and
 * two Tabs reached the input. Now, when the chat gets the focus and nothing in it has it, the composer does.
 *
 * Never over the user's own aim: a focus that comes with a pointer press (a click in the transcript, e.g. to
 * select text) stays where the click put it, and an element of the chat that has the focus keeps it
 * (a permission dialog reached with Ctrl+Shift+A, a button, the file picker; see permissionFocus.ts).
 * A letter typed while nothing has the focus goes to the composer too.
 */

/** Time after a pointer press during which a focus of the window is the click's, not the workbench's. */
const pointerGraceMs = 500;

/** When a new page checks whether it was given the focus before it could listen (ms after start). */
const settleChecksMs = [0, 100, 300, 1000, 2500];

function nothingFocused(doc: Document): boolean {
  const el = doc.activeElement;
  return !el || el === doc.body || el === doc.documentElement;
}

/** Installs the rule; `input` finds the composer's text box (it may be re-created). */
export function focusComposerOnEntry(input: () => HTMLElement | null, win: Window = window): void {
  const doc = win.document;
  let pointerAt = -Infinity;
  win.addEventListener('pointerdown', () => { pointerAt = win.performance.now(); }, true);
  const enter = (): void => {
    // after the event: a click's own focus change, if any, has happened by then
    win.setTimeout(() => {
      if (win.performance.now() - pointerAt < pointerGraceMs || !nothingFocused(doc) || !doc.hasFocus()) return;
      input()?.focus();
    }, 0);
  };
  win.addEventListener('focus', enter);
  // a key typed while nothing has the focus yet goes to the composer with the focus (its default action
  // then types it there), so the first letters typed into a new chat are not lost
  doc.addEventListener('keydown', (e) => {
    if (!nothingFocused(doc) || e.ctrlKey || e.metaKey || e.altKey || [...e.key].length !== 1) return;
    input()?.focus();
  }, true);
  // a new chat, or one re-created when its tab comes back (the webview is not kept while hidden), was given
  // the focus before this script ran: no focus event follows. Look while the page settles.
  for (const ms of settleChecksMs) win.setTimeout(enter, ms);
}
