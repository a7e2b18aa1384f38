import * as assert from 'node:assert/strict';
import { ScrollFollow, stickPx, userScrollMs } from '../../../webview/transcript/scrollFollow';
import type { KeyTarget, ScrollBox } from '../../../webview/transcript/scrollFollow';

/** A transcript 1000 px tall in a 200 px view, scrolled to the bottom. */
function setup() {
  const box: ScrollBox & { scrollHeight: number } = { scrollTop: 800, scrollHeight: 1000, clientHeight: 200 };
  let time = 1000; // performance.now() is past 0 on a real page
  const jump: boolean[] = [];
  const watched: string[] = [];
  const follow = new ScrollFollow<string>({
    box,
    now: () => time,
    showJumpToLatest: (show) => jump.push(show),
    lastEntry: { observe: (e) => watched.push(`+${e}`), unobserve: (e) => watched.push(`-${e}`) },
  });
  return { box, follow, jump, watched, tick: (ms: number) => { time += ms; } };
}

/** An element a key goes to: matches the selectors in `matches`. */
function target(matches: string[] = [], isContentEditable = false): KeyTarget {
  return { isContentEditable, closest: (selectors) => (matches.some((m) => selectors.includes(m)) ? {} : null) };
}

describe('ScrollFollow: the transcript follows new content until the user scrolls up', () => {
  it('follows the bottom as content grows', () => {
    const { box, follow } = setup();
    box.scrollHeight = 1500;
    follow.followBottom();
    assert.equal(box.scrollTop, 1500);
  });

  it("the page's own scrolls (no gesture) never stop the following", () => {
    const { box, follow, jump } = setup();
    box.scrollTop = 0; // scroll anchoring, content-visibility: far from the bottom for a moment
    follow.scrolled();
    assert.equal(follow.stick, true);
    assert.deepEqual(jump, []);
  });

  it('a wheel that scrolls up stops the following and shows Jump to latest; back near the bottom follows again', () => {
    const { box, follow, jump, tick } = setup();
    follow.userScrolls();
    box.scrollTop = 300;
    follow.scrolled();
    assert.equal(follow.stick, false);
    assert.deepEqual(jump, [true]);
    box.scrollHeight = 1200;
    follow.followBottom();
    assert.equal(box.scrollTop, 300, 'not following: the view stays where the user put it');

    tick(10);
    follow.userScrolls();
    box.scrollTop = 1200 - 200 - (stickPx - 1);
    follow.scrolled();
    assert.equal(follow.stick, true);
    assert.deepEqual(jump, [true, false]);
  });

  it('a Find match shown far above stops the following (the parts coming back do not pull the view down); Jump to latest follows again', () => {
    const { box, follow, jump } = setup();
    box.scrollTop = 100; // the page scrolled to the match
    follow.stopFollowing();
    assert.equal(follow.stick, false);
    assert.deepEqual(jump, [true]);
    box.scrollHeight = 1010; // a frozen part came back 10 px taller: the last entry grew
    follow.followBottom();
    assert.equal(box.scrollTop, 100, 'the match stays in view');
    follow.stopFollowing();
    assert.deepEqual(jump, [true], 'told once');
    follow.jumpToLatest();
    assert.equal(follow.stick, true);
    assert.equal(box.scrollTop, 1010);
  });

  it(`a scroll counts as the user's for ${userScrollMs} ms after the gesture`, () => {
    const { box, follow, tick } = setup();
    follow.userScrolls();
    tick(userScrollMs + 1);
    box.scrollTop = 0;
    follow.scrolled();
    assert.equal(follow.stick, true);
  });

  it('a drag of the scrollbar counts while it lasts and for a moment after; a pointer on the content does not', () => {
    const { box, follow, tick } = setup();
    follow.pointerDown(false);
    box.scrollTop = 0;
    follow.scrolled();
    assert.equal(follow.stick, true, 'a pointer on an entry is not a scrollbar drag');

    follow.pointerDown(true);
    tick(10_000);
    follow.scrolled();
    assert.equal(follow.stick, false, 'the whole drag is the user scrolling');
    follow.pointerUp();
    tick(userScrollMs - 1);
    box.scrollTop = 800;
    follow.scrolled();
    assert.equal(follow.stick, true, 'the scroll that ends the drag still counts');
    tick(2);
    box.scrollTop = 0;
    follow.scrolled();
    assert.equal(follow.stick, true, 'later ones do not');
  });

  it('scrolling keys count, except while typing and Space on a button', () => {
    const cases: Array<[string, KeyTarget | undefined, boolean]> = [
      ['PageUp', target(), true],
      ['ArrowUp', target(), true],
      ['Home', target(), true],
      [' ', target(), true],
      ['a', target(), false],
      ['PageUp', undefined, false],
      ['ArrowUp', target(['textarea']), false],
      ['End', target(['input']), false],
      ['PageDown', target([], true), false],
      [' ', target(['button']), false],
      [' ', target(['summary']), false],
      ['PageUp', target(['button']), true],
    ];
    for (const [key, t, counts] of cases) {
      const { box, follow } = setup();
      follow.keyDown(key, t);
      box.scrollTop = 0;
      follow.scrolled();
      assert.equal(follow.stick, !counts, `${JSON.stringify(key)} on ${t ? 'an element' : 'nothing'}`);
    }
  });

  it('Jump to latest follows again and hides itself', () => {
    const { box, follow, jump } = setup();
    follow.userScrolls();
    box.scrollTop = 0;
    follow.scrolled();
    box.scrollHeight = 2000;
    follow.jumpToLatest();
    assert.equal(follow.stick, true);
    assert.equal(box.scrollTop, 2000);
    assert.deepEqual(jump, [true, false]);
  });

  it('watches the size of the last entry only', () => {
    const { follow, watched } = setup();
    follow.watchLast('a');
    follow.watchLast('a');
    follow.watchLast('b');
    follow.watchLast(null);
    assert.deepEqual(watched, ['+a', '-a', '+b', '-b']);
  });
});
