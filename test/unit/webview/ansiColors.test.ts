import * as assert from 'node:assert/strict';
import { ansiColorRules, ansiSegments, applySgr, sgrClasses } from '../../../webview/lib/ansi';

describe('ANSI colours in the chat webview', () => {
  it('turns SGR colours, bold and underline into classes and drops other escapes', () => {
    const { segments, state } = ansiSegments('\x1b[1;32mPASS\x1b[0m test \x1b[4mu\x1b[24m \x1b[31mred\x1b[39m\x1b[2K\r\n');
    assert.deepEqual(segments, [
      { text: 'PASS', classes: ['ansi-fg-green', 'ansi-bold'] },
      { text: ' test ', classes: [] },
      { text: 'u', classes: ['ansi-underline'] },
      { text: ' ', classes: [] },
      { text: 'red', classes: ['ansi-fg-red'] },
      { text: '\n', classes: [] },
    ]);
    assert.deepEqual(state, {});
  });

  it('carries the attributes from one chunk to the next', () => {
    const first = ansiSegments('a\x1b[33mb');
    assert.deepEqual(first.segments, [{ text: 'a', classes: [] }, { text: 'b', classes: ['ansi-fg-yellow'] }]);
    const second = ansiSegments('c\x1b[0md', first.state);
    assert.deepEqual(second.segments, [{ text: 'c', classes: ['ansi-fg-yellow'] }, { text: 'd', classes: [] }]);
  });

  it('knows bright colours, backgrounds, 256-colour values below 16, true colour (ignored) and resets', () => {
    assert.deepEqual(sgrClasses(applySgr({}, '91;104')), ['ansi-fg-bright-red', 'ansi-bg-bright-blue']);
    assert.deepEqual(sgrClasses(applySgr({}, '38;5;4;48;5;200')), ['ansi-fg-blue']);
    assert.deepEqual(sgrClasses(applySgr({}, '38;2;10;20;30;1')), ['ansi-bold']);
    assert.deepEqual(applySgr({ fg: 1, bold: true }, ''), {});
    assert.deepEqual(sgrClasses(applySgr({ fg: 1, bg: 2 }, '7')), ['ansi-fg-green', 'ansi-bg-red']);
    assert.deepEqual(sgrClasses(applySgr({}, '7')), ['ansi-fg-inverse', 'ansi-bg-inverse']);
    assert.deepEqual(sgrClasses(applySgr({ bold: true, dim: true, underline: true }, '22;24')), []);
  });

  it('colours each class with the terminal theme colour of its name', () => {
    const rules = ansiColorRules();
    assert.ok(rules.includes('.ansi-fg-red{color:var(--vscode-terminal-ansiRed)}'));
    assert.ok(rules.includes('.ansi-bg-bright-black{background:var(--vscode-terminal-ansiBrightBlack)}'));
    assert.equal(rules.match(/\.ansi-(fg|bg)-/g)?.length, 32);
  });

  it('never produces markup: text with angle brackets stays text', () => {
    const { segments } = ansiSegments('\x1b[31m<img src=x onerror=alert(1)>\x1b[0m');
    assert.equal(segments[0].text, '<img src=x onerror=alert(1)>');
  });
});
