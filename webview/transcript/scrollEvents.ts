/**
 * The page's side of {@link ScrollFollow}: the user's scroll gestures on the transcript, the Jump to latest
 * button, and the size of the last entry.
 */
import { button } from '../components/button';
import { ScrollFollow } from './scrollFollow';

/**
 * Follows new content in `transcript`. `focusComposer` takes the keyboard when Jump to latest, which had it,
 * goes away.
 */
export function followTranscript(transcript: HTMLElement, focusComposer: () => void): ScrollFollow<Element> {
  /**
   * While the view does not follow: a button back to the newest content, following it again. Made when first
   * needed (the toolkit's components are not loaded before a chat needs one).
   */
  let jumpBar: HTMLElement | undefined;
  const showJumpToLatest = (show: boolean): void => {
    if (!show && !jumpBar) return;
    if (!jumpBar) {
      const bar = document.createElement('div');
      bar.className = 'jump-latest-bar';
      bar.append(button({
        label: 'Jump to latest', icon: 'arrow-down', testId: 'jump-latest', className: 'jump-latest',
        title: 'Scroll to the newest message and follow it again',
        onClick: () => {
          const hadFocus = bar.contains(document.activeElement);
          follow.jumpToLatest();
          // the button is gone: keep the keyboard where the user goes on
          if (hadFocus) focusComposer();
        },
      }));
      transcript.after(bar);
      jumpBar = bar;
    }
    jumpBar.hidden = !show;
  };
  const follow: ScrollFollow<Element> = new ScrollFollow<Element>({
    box: transcript,
    now: () => performance.now(),
    showJumpToLatest,
    lastEntry: new ResizeObserver(() => follow.followBottom()),
    nextFrame: (fn) => { requestAnimationFrame(fn); },
  });

  const userScrolls = (): void => follow.userScrolls();
  transcript.addEventListener('wheel', userScrolls, { passive: true });
  transcript.addEventListener('touchmove', userScrolls, { passive: true });
  transcript.addEventListener('pointerdown', (e) => follow.pointerDown(e.target === transcript));
  window.addEventListener('pointerup', () => follow.pointerUp());
  document.addEventListener('keydown', (e) => follow.keyDown(e.key, e.target instanceof Element ? e.target : undefined));
  transcript.addEventListener('scroll', () => follow.scrolled(), { passive: true });
  return follow;
}
