/**
 * Every approval is deliberate: the buttons of a permission dialog ignore activation (a click, Enter, Space)
 * until {@link armDelayMs} after the request was first on screen, the time a person needs to see what it
 * asks, as VS Code's own dialogs do for destructive actions. They also ignore key repeat: an Enter or a Space
 * held down elsewhere never answers a request that just took the focus.
 *
 * "First on screen" is per request, not per element: a card is rendered again on every update of its tool
 * call, and that must not start the wait again. It is the first time the dialog intersects the viewport
 * (an IntersectionObserver, which reports nothing while the chat is hidden), so a request that arrived in
 * a hidden panel waits until the panel shows. A dialog restored after a reload of the panel counts from
 * when it is rendered and seen again. A request is armed by a timer that fires {@link armDelayMs} after it
 * was first seen (never earlier); from then on its dialog has `data-armed="true"`, in the same task.
 * The layout is also looked at a few times a second until then, in case the observer's report never comes.
 */

/** Milliseconds after a request is first on screen before its buttons act. */
export const armDelayMs = 300;

/** When each request was first on screen (performance.now() time). */
const shownAt = new Map<string, number>();
/** Requests whose buttons act. */
const armed = new Set<string>();
/** The dialog elements of each request not armed yet (a card renders again on each update). */
const dialogs = new Map<string, Set<Element>>();
const requestOf = new WeakMap<Element, string>();
let observer: IntersectionObserver | undefined;

function shown(requestId: string, at: number): void {
  if (shownAt.has(requestId)) return;
  shownAt.set(requestId, at);
  for (const el of dialogs.get(requestId) ?? []) observer?.unobserve(el);
  setTimeout(() => {
    armed.add(requestId);
    for (const el of dialogs.get(requestId) ?? []) el.setAttribute('data-armed', 'true');
    dialogs.delete(requestId);
  }, Math.max(0, at + armDelayMs - performance.now()));
}

/** Watches a (new) dialog element of a request until the request is armed. */
function watch(dialog: HTMLElement, requestId: string): void {
  if (armed.has(requestId)) {
    dialog.setAttribute('data-armed', 'true');
    return;
  }
  let set = dialogs.get(requestId);
  if (!set) dialogs.set(requestId, set = new Set());
  set.add(dialog);
  if (shownAt.has(requestId)) return; // seen: the timer arms it
  if (typeof IntersectionObserver === 'undefined') {
    shown(requestId, performance.now());
    return;
  }
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) {
      const id = requestOf.get(e.target);
      if (id !== undefined && e.isIntersecting) shown(id, e.time);
    }
  });
  requestOf.set(dialog, requestId);
  observer.observe(dialog);
  pollUntilShown(requestId);
}

/** Milliseconds between two looks at a request's dialogs while no intersection was reported. */
const pollMs = 250;
const polled = new Set<string>();

/** Whether an element is laid out inside the frame's viewport, in a visible document. */
function onScreen(el: Element): boolean {
  if (!el.isConnected || document.visibilityState !== 'visible') return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth;
}

/**
 * The observer's backstop: Chromium skips the rendering steps, and with them the intersection reports, of a
 * cross-origin frame it wrongly thinks is off screen (seen under load in the UI tests), and a request must
 * not stay unanswerable. While a request is not seen, its dialogs are looked at every {@link pollMs} ms from
 * the layout itself.
 */
function pollUntilShown(requestId: string): void {
  if (polled.has(requestId)) return;
  polled.add(requestId);
  const look = (): void => {
    if (shownAt.has(requestId)) return void polled.delete(requestId);
    const els = dialogs.get(requestId);
    if (!els || ![...els].some((el) => el.isConnected)) return void polled.delete(requestId); // answered or gone
    if ([...els].some(onScreen)) shown(requestId, performance.now());
    else setTimeout(look, pollMs);
  };
  setTimeout(look, pollMs);
}

/** Whether the buttons of a request act now. */
export function isArmed(requestId: string): boolean {
  return armed.has(requestId);
}

const activationKeys = new Set(['Enter', ' ']);

/**
 * Guards the buttons inside `dialog` (toolkit buttons: the native button in their shadow root turns Enter
 * and Space into a click that reaches the host element): a click is stopped before the buttons' own
 * listeners see it while the request is not armed; Enter and Space are cancelled (no click follows) while
 * not armed or when repeated.
 */
export function guardActivation(dialog: HTMLElement, requestId: string): void {
  watch(dialog, requestId);
  /** The key whose keydown was cancelled: its keyup (Space clicks on keyup) is cancelled too. */
  let cancelledKey: string | undefined;
  dialog.addEventListener('keydown', (e) => {
    if (!activationKeys.has(e.key)) return;
    if (e.repeat || !isArmed(requestId)) {
      e.preventDefault();
      cancelledKey = e.key;
    }
  }, true);
  dialog.addEventListener('keyup', (e) => {
    if (e.key !== cancelledKey) return;
    cancelledKey = undefined;
    e.preventDefault();
  }, true);
  dialog.addEventListener('click', (e) => {
    if (isArmed(requestId)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
  }, true);
}
