import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { capLength, inert, inertMaxLength, inertText, revealInvisible, useSecretMasker, type InertSink } from '../../../src/shared/inertText';
import { maskTokens, SecretMasker } from '../../../src/shared/secretMasker';

/** VS Code's notification / dialog link parser (vs/base/common/linkedText.ts). */
const vscodeLinkRegex = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** VS Code's codicon syntax (vs/base/browser/ui/iconLabel/iconLabels.ts): group 1 set means escaped. */
const vscodeIconRegex = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z0-9-]*)?)\)/g;
/** What must never survive in any sink. */
const invisibleChars = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u2028\u2029]|[\u{E0000}-\u{E007F}]/u;

/** A Markdown renderer as permissive as a hover's: links, autolinks, linkify. HTML off, as VS Code without supportHtml. */
const md = new MarkdownIt({ html: false, linkify: true });

/** The vectors: each is agent text that would do something in some sink if passed through as is. */
const corpus: { name: string; text: string }[] = [
  { name: 'command link', text: '[Show details](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)' },
  { name: 'command link with title', text: '[OK](command:git.push "Push now")' },
  { name: 'file link', text: '[open](file:///etc/passwd)' },
  { name: 'http link', text: '[docs](http://evil.example/steal)' },
  { name: 'https link', text: 'see [the docs](https://evil.example/x?y=1)' },
  { name: 'vscode link', text: '[install](vscode:extension/evil.publisher)' },
  { name: 'vscode-insiders link', text: '[x](vscode-insiders://file/etc/passwd)' },
  { name: 'link with spaces before paren', text: '[go]  (command:workbench.action.quit)' },
  { name: 'nested brackets', text: '[[a](command:x)](command:y)' },
  { name: 'reference link', text: '[click][1]\n\n[1]: command:workbench.action.quit' },
  { name: 'reference link, collapsed', text: '[evil][]\n[evil]: https://evil.example' },
  { name: 'autolink https', text: '<https://evil.example/a>' },
  { name: 'autolink command', text: '<command:workbench.action.quit>' },
  { name: 'bare url', text: 'visit https://evil.example now' },
  { name: 'www url', text: 'visit www.evil.example now' },
  { name: 'email autolink', text: 'mail attacker@evil.example' },
  { name: 'image', text: '![x](https://evil.example/track.png)' },
  { name: 'codicon', text: '$(check) Approved' },
  { name: 'codicon spin', text: '$(sync~spin) working' },
  { name: 'codicon already escaped', text: '\\$(zap) pre-escaped' },
  { name: 'codicon in the middle', text: 'Run tests $(pass-filled) $(error)' },
  { name: 'html tag', text: '<img src=x onerror=alert(1)>' },
  { name: 'html link', text: '<a href="command:workbench.action.quit">quit</a>' },
  { name: 'script', text: '<script>alert(1)</script>' },
  { name: 'html entity', text: '&lt;b&gt; &#x5b;x&#x5d;(command:y)' },
  { name: 'emphasis and code', text: '**bold** _it_ `code` ~~s~~' },
  { name: 'heading and list', text: '# Title\n- item\n> quote' },
  { name: 'bidi override', text: 'rm -rf \u202Eexe.txt' },
  { name: 'bidi isolates', text: 'a\u2066b\u2067c\u2068d\u2069e' },
  { name: 'bidi embeddings and marks', text: '\u202Aleft\u202Bright\u202C\u200E\u200F\u061C' },
  { name: 'zero-width', text: 'com\u200Bmand\u200C:\u200Dx\u2060\uFEFF' },
  { name: 'tag characters (ASCII smuggling)', text: 'hello\u{E0041}\u{E0042}\u{E0043}' },
  { name: 'controls and newlines', text: 'line1\nline2\r\nline3\u0007\u001b[31mred\u001b[0m\u2028x' },
  { name: 'soft hyphen', text: 'pass\u00ADword' },
  { name: 'very long', text: 'A'.repeat(10_000) },
  { name: 'very long link at the cap', text: `${'x'.repeat(100)}[a](command:x)${'y'.repeat(5000)}` },
  { name: 'very long of astral characters', text: '😀'.repeat(3000) },
  { name: 'marker at the cap', text: `${'a'.repeat(115)}\u202E${'b'.repeat(50)}` },
];

const sinks: InertSink[] = ['message', 'label', 'plain', 'markdown'];

/** Text content of rendered HTML. */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').trim();
}

describe('inertText', () => {
  it('has a corpus of at least 30 vectors', () => {
    assert.ok(corpus.length >= 30, `${corpus.length} vectors`);
  });

  for (const sink of sinks) {
    describe(`sink ${sink}`, () => {
      for (const v of corpus) {
        it(`neutralises: ${v.name}`, () => {
          const out = inertText(v.text, sink);
          assert.ok(!invisibleChars.test(out), `no invisible or bidi character survives: ${JSON.stringify(out)}`);
          assert.ok(!/[\r\n]/.test(out), 'no line break survives');
          assert.ok(Array.from(out).length <= inertMaxLength[sink] + (sink === 'markdown' ? inertMaxLength[sink] : 0) + 8, 'the length is capped');
          if (sink === 'message') {
            assert.equal(out.match(vscodeLinkRegex), null, `no VS Code link forms: ${out}`);
          }
          if (sink === 'label') {
            for (const m of out.matchAll(vscodeIconRegex)) assert.equal(m[1], '\\', `every $(icon) is escaped: ${out}`);
          }
          if (sink === 'message' || sink === 'plain') {
            assert.ok(!out.includes('\\$(') || v.text.includes('\\$('), 'these sinks render no codicons: nothing to escape, no stray backslash');
          }
          if (sink === 'markdown') {
            const html = md.render(out);
            assert.ok(!/<(a|img|strong|em|code|script|h\d|ul|ol|blockquote|del|s)\b/i.test(html), `no Markdown construct forms: ${html}`);
            assert.equal(md.renderInline(out).includes('<'), false, `inline rendering makes no element: ${md.renderInline(out)}`);
            // shown literally: the text a reader sees is the revealed, capped original
            assert.equal(textOf(md.renderInline(out)), capLength(revealInvisible(v.text), inertMaxLength.markdown).trim());
          }
        });
      }
    });
  }

  it('shows codicon syntax literally (escaped as VS Code escapes icons)', () => {
    assert.equal(inertText('$(check) done', 'label'), '\\$(check) done');
    assert.equal(inertText('$(check) done', 'plain'), '$(check) done');
    // VS Code renders an escaped icon as its literal text: the reader sees the agent's text
    const rendered = inertText('\\$(zap) and $(zap)', 'label').replace(vscodeIconRegex, (_all, esc: string | undefined, id: string) => (esc ? `$(${id})` : `<icon ${id}>`));
    assert.equal(rendered, '\\$(zap) and $(zap)');
  });

  it('keeps link text readable while breaking the link', () => {
    assert.equal(inertText('[Show details](command:x)', 'message'), '[Show details] (command:x)');
    assert.equal(inertText('[Show details](command:x)', 'label'), '[Show details](command:x)', 'quick picks render no links: unchanged');
  });

  it('reveals invisible characters as markers and keeps emoji sequences', () => {
    assert.equal(revealInvisible('a\u202Eb\u200Bc'), 'a<U+202E>b<U+200B>c');
    assert.equal(revealInvisible('x\u{E0041}'), 'x<U+E0041>');
    assert.equal(revealInvisible('👨\u200D👩\u200D👧'), '👨\u200D👩\u200D👧', 'a joiner inside an emoji sequence stays');
    assert.equal(revealInvisible('a\u200Db'), 'a<U+200D>b', 'a joiner between letters is revealed');
    assert.equal(revealInvisible('one\ntwo\tthree'), 'one two three');
  });

  it('caps with an ellipsis without splitting a surrogate pair or a marker', () => {
    assert.equal(capLength('abcdef', 4), 'abc…');
    assert.equal(capLength('abc', 3), 'abc');
    assert.equal(capLength('😀😀😀😀', 3), '😀😀…');
    assert.equal(capLength('ab<U+202E>cd', 6), 'ab…');
    assert.equal(capLength('ab<U+202E>cd', 4), 'ab…');
    assert.equal(capLength('ab<U+202E>cd', 5), 'ab…');
    assert.equal(capLength('ab<x>cd', 5), 'ab<x…', 'only a marker is kept whole');
    assert.equal(inertText('x'.repeat(500), 'label').length, inertMaxLength.label);
    assert.equal(inertText('x'.repeat(500), 'plain', 10), `${'x'.repeat(9)}…`);
  });

  it('tags neutralise only the interpolations', () => {
    const title = '[details](command:evil) $(zap)\u202E';
    assert.equal(inert.message`Agent asks: ${title}`, 'Agent asks: [details] (command:evil) $(zap)<U+202E>');
    assert.equal(inert.label`$(comment) ${title}: ${3}`, '$(comment) [details](command:evil) \\$(zap)<U+202E>: 3');
    assert.equal(inert.plain`${undefined}-${null}-${'a\nb'}`, '--a b');
    assert.equal(inert.markdown`**${'*x*'}**`, '**\\*x\\***');
  });
});

describe('inertText masks secrets at every sink', () => {
  afterEach(() => useSecretMasker(maskTokens));

  it('masks token shapes even before activation installs the masker', () => {
    for (const sink of ['message', 'label', 'plain', 'markdown'] as const) {
      const out = inertText('Authorization failed for ghp_0123456789abcdefABCDEF0123456789abcd', sink);
      assert.ok(!out.includes('ghp_0123456789'), `${sink}: ${out}`);
    }
  });

  it('masks the known values of the installed masker, in a notification and through the template tags', () => {
    const masker = new SecretMasker();
    masker.add('hunter2-very-secret');
    useSecretMasker((t) => masker.redact(t));
    assert.equal(inertText('login with hunter2-very-secret failed', 'message'), 'login with *** failed');
    assert.equal(inert.message`Agent said: ${'bad value hunter2-very-secret'}`, 'Agent said: bad value ***');
  });
  it('masks in a second copy of the module too (a part bundled on its own, e.g. the registry commands)', () => {
    const masker = new SecretMasker();
    masker.add('hunter3-other-secret');
    useSecretMasker((t) => masker.redact(t));
    const file = require.resolve('../../../src/shared/inertText');
    const first = require.cache[file];
    delete require.cache[file];
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, as a lazily loaded bundle has
      const copy = require('../../../src/shared/inertText') as typeof import('../../../src/shared/inertText');
      assert.notEqual(copy.inertText, inertText, 'a separate copy of the module');
      assert.equal(copy.inertText('said hunter3-other-secret twice', 'message'), 'said *** twice');
    } finally {
      if (first) require.cache[file] = first;
    }
  });
});
