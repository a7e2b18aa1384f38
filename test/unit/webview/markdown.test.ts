import * as assert from 'node:assert/strict';
import { htmlPlainText } from '../../../webview/lib/htmlText';
import { fenceLanguage, isAllowedLink, markdown, markdownHtml, MarkdownSplitter, stableCut, tightListCutChars, windowChars } from '../../../webview/lib/markdownCore';

/** A deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Streams `text` through a splitter in the given chunks and returns kept HTML + the last tail. */
function streamed(chunks: readonly string[], renderEvery = 1): string {
  const s = new MarkdownSplitter();
  let kept = '';
  let tail = '';
  const drain = () => {
    for (;;) {
      const step = s.step();
      kept += step.kept;
      if (step.tail !== undefined) tail = step.tail;
      if (!step.pending) return;
    }
  };
  chunks.forEach((c, i) => {
    s.append(c);
    if (i % renderEvery === 0) drain();
  });
  drain();
  return kept + tail;
}

function randomChunks(text: string, rand: () => number, max: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length;) {
    const n = 1 + Math.floor(rand() * max);
    out.push(text.slice(at, at + n));
    at += n;
  }
  return out;
}

const docs: Record<string, string> = {
  prose: '# Title\n\nA paragraph with **bold**, *em*, `code` and a [link](https://example.com/a).\nA second line.\n\nAnother paragraph.\n\n---\n\nSetext heading\n===\n\nText\n- list right after\n- two\n',
  lists: '- a\n- b\n\n- loose c\n\n  continued paragraph of c\n\n1. one\n2. two\n3. three\n\n10. ten\n\nafter the list\n\n* star\n+ plus\n',
  longLists: '- one\n\n- two\n  - nested\n    1. deep\n\n- three\n- four\n\n3. c\n4. d\n\n5. e\n   more of e\n6) other delimiter\n7) g\n\n- a\n* b\n\nafter\n\n1. x\n\n   text of x\n2. y\n',
  code: 'Before\n\n```ts\nconst a = 1;\n\n\nconst b = 2; // blank lines inside\n```\n\n    indented code\n\n    more indented\n\nafter\n\n~~~\ntilde fence\n```\nstill inside\n~~~\n',
  tables: '| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n\nText\n| not | a table |\n\n> quote\nlazy continuation\n\n> second quote\n',
  mixed: '## Step\n\nSee `src/x.ts:12` and www.example.com or <https://example.com/auto>.\n> q\n# h\n```\nunclosed fence at the end',
  references: '[label]: https://example.com/ref\n\nUse [label] here.\n\nAnd [label] again.\n',
};

describe('agent Markdown (webview/lib/markdownCore)', () => {
  describe('safety', () => {
    it('shows raw HTML as text (html: false)', () => {
      const html = markdownHtml('<script>window.x=1</script>\n\n<img src=x onerror="alert(1)">\n\ntext <b onclick="x()">b</b>');
      assert.ok(!/<script|<img|<b /i.test(html), html);
      assert.match(html, /&lt;script&gt;/);
      assert.match(html, /&lt;img src=x onerror=&quot;alert\(1\)&quot;&gt;/);
    });

    it('file names are text, not web links; bare web hosts and URLs still link', () => {
      const html = markdownHtml('There is no README.md here; see setup.py, main.rs and run.sh. Docs: www.example.com, example.org and https://example.net/x');
      assert.ok(!/README\.md<\/a>|setup\.py<\/a>|main\.rs<\/a>|run\.sh<\/a>/.test(html), html);
      assert.match(html, /data-href="http:\/\/www\.example\.com"/);
      assert.match(html, /data-href="http:\/\/example\.org"/);
      assert.match(html, /data-href="https:\/\/example\.net\/x"/);
    });

    it('links carry data-href, never href, and only for allowed schemes', () => {
      const html = markdownHtml('[web](https://example.com/?q=1&x=2) [rel](src/a.ts#L3) [js](javascript:alert(1)) [vb](vbscript:x) [cmd](command:workbench.action.x) [vs](vscode://x) [mail](mailto:a@b.c) [frag](#top) [net](//evil.example/x)');
      assert.ok(!/\shref=/.test(html), html);
      assert.match(html, /data-href="https:\/\/example.com\/\?q=1&#38;x=2"/);
      assert.match(html, /data-href="src\/a.ts#L3"/);
      for (const bad of ['javascript:', 'vbscript:', 'command:', 'vscode:', 'mailto:', '#top', '//evil']) assert.ok(!html.includes(`data-href="${bad}`), `${bad} must not be a link: ${html}`);
      assert.equal(isAllowedLink('JaVaScRiPt:alert(1)'), false);
      assert.equal(isAllowedLink(' javascript:alert(1)'), false);
      assert.equal(isAllowedLink('file:///etc/hosts'), true);
      assert.equal(isAllowedLink('C:/repo/a.ts'), true);
    });

    it('never loads an image from the network; data: images only of raster types', () => {
      const html = markdownHtml('![remote](https://evil.example/x.png) ![px](data:image/png;base64,iVBORw0KGgo=) ![svg](data:image/svg+xml;base64,PHN2Zz4=) ![html](data:text/html;base64,PGI+)');
      assert.ok(!/<img[^>]+src="http/.test(html), html);
      assert.match(html, /<span class="md-link md-image-link" data-href="https:\/\/evil.example\/x.png"/);
      assert.match(html, /<img class="md-image" src="data:image\/png;base64,iVBORw0KGgo="/);
      assert.ok(!/<img[^>]+image\/svg|data-href="data:/.test(html), html);
      assert.equal((html.match(/<img/g) ?? []).length, 1, html);
    });

    it('escapes fence info strings: a safe language label only', () => {
      const html = markdownHtml('```js" onmouseover="alert(1) x\nlet a = "<b>";\n```\n');
      assert.equal(fenceLanguage('js" onmouseover="alert(1)'), 'js');
      assert.equal(fenceLanguage('c<img/src=x>++'), 'cimgsrcx++');
      assert.ok(!html.includes('onmouseover="'), html);
      assert.match(html, /let a = &#34;&#60;b&#62;&#34;;/);
      assert.match(html, /<div class="code-block" data-lang="js/);
    });

    it('turns table alignment into classes (inline styles are blocked by the CSP)', () => {
      const html = markdownHtml('| a | b |\n|:-:|--:|\n| 1 | 2 |\n');
      assert.ok(!html.includes('style='), html);
      assert.match(html, /<th class="align-center">a<\/th>/);
      assert.match(html, /<td class="align-right">2<\/td>/);
    });
  });

  describe('streaming (MarkdownSplitter)', () => {
    it('keeps blocks once a later block starts on a complete line', () => {
      const src = 'para one\n\npara two\n\npartial';
      const cut = stableCut(src, markdown.parse(src, {}));
      assert.deepEqual(cut, { token: 3, char: 'para one\n\n'.length });
      const partial = 'para one\n\n- ite';
      assert.equal(stableCut(partial, markdown.parse(partial, {})), undefined, 'a block on the partial last line keeps the block before it open');
      const one = 'just one paragraph\n';
      assert.equal(stableCut(one, markdown.parse(one, {})), undefined);
    });

    for (const [name, doc] of Object.entries(docs)) {
      it(`renders "${name}" exactly like a whole render, for any chunking`, () => {
        const whole = markdownHtml(doc);
        assert.equal(streamed([doc]), whole, 'one chunk');
        assert.equal(streamed([...doc]), whole, 'one character at a time');
        const rand = prng(name.length * 7919);
        for (let i = 0; i < 30; i++) assert.equal(streamed(randomChunks(doc, rand, 1 + i * 3), 1 + (i % 4)), whole, `random chunking ${i}`);
      });
    }

    it(`renders a long text in windows of ~${windowChars} characters, identical to a whole render`, () => {
      const parts: string[] = [];
      for (let k = 0; k < 400; k++) parts.push(`## Section ${k}\n\nText of section ${k} with \`code\`.\n\n- item ${k}\n- more\n\n\`\`\`\ncode ${k}\n\`\`\`\n\n`);
      const doc = parts.join('');
      assert.ok(doc.length > 4 * windowChars);
      const whole = markdownHtml(doc);
      assert.equal(streamed([doc]), whole, 'a snapshot: everything at once, rendered over several steps');
      assert.equal(streamed(randomChunks(doc, prng(3), 400), 5), whole, 'streamed');
      // a single block longer than a window (a huge code block)
      const fence = `intro\n\n\`\`\`\n${'x'.repeat(80)}\n`.repeat(1) + `${'line of code\n'.repeat(3 * windowChars / 13)}\`\`\`\n\nafter\n`;
      assert.equal(streamed([fence]), markdownHtml(fence));
    });

    it('a backlog of thousands of chunks (rendering fell behind) is taken a window at a time, identical to a whole render', () => {
      const doc = Object.values(docs).join('\n\n').repeat(40);
      const chunks = randomChunks(doc, prng(11), 40);
      assert.ok(chunks.length > 1000);
      assert.equal(streamed(chunks, chunks.length + 1), markdownHtml(doc), 'every chunk appended before the first step');
      const s = new MarkdownSplitter();
      chunks.forEach((c) => s.append(c));
      assert.equal(s.tailLength, doc.length);
      s.step();
      assert.ok(s.tailLength < doc.length && s.tailLength > doc.length - 2 * windowChars, 'one step takes about one window');
    });

    it('keeps a long list item by item (not parsed again whole at each step), identical to a whole render', () => {
      const items = (n: number, sep: string, marker: (i: number) => string) => Array.from({ length: n }, (_, i) => `${marker(i)} item ${i} with \`code\`\n${' '.repeat(marker(i).length + 1)}- nested ${i}\n`).join(sep);
      const cases: Record<string, string> = {
        'loose bullets': items(600, '\n', () => '-'),
        'loose ordered from 7': items(600, '\n', (i) => `${i + 7}.`),
        'loose ordered, all numbered 1.': items(600, '\n', () => '1.'),
        'tight bullets past the limit': items(Math.ceil((6 * tightListCutChars) / 40), '', () => '-'),
        'loose list, then text': `${items(300, '\n', () => '*')}\nafter the list\n`,
      };
      for (const [name, doc] of Object.entries(cases)) {
        const whole = markdownHtml(doc);
        assert.equal(streamed(randomChunks(doc, prng(name.length), 200), 3), whole, `${name}: streamed`);
        assert.equal(streamed([doc]), whole, `${name}: a snapshot`);
        // O(chunk): after a step the open part is short, and a step's kept HTML starts inside the list
        const s = new MarkdownSplitter();
        s.append(doc.slice(0, doc.length / 2));
        let step = s.step();
        while (step.pending) step = s.step();
        s.append(doc.slice(doc.length / 2, (3 * doc.length) / 4));
        step = s.step();
        assert.ok(s.tailLength < tightListCutChars + 2 * windowChars, `${name}: the open part is short (${s.tailLength})`);
        assert.ok(step.keptIn && step.kept.startsWith('<li>'), `${name}: kept items continue the list (${step.kept.slice(0, 30)})`);
        if (name.includes('ordered')) assert.ok(step.keptIn.ordered && step.keptIn.start > 7, `${name}: ordered, numbered on (${step.keptIn.start})`);
      }
      // a short tight list is never cut: a blank line later would make it loose, as a whole render does
      const tight = `${items(40, '', () => '-')}\n- last\n\n- loose now\n`;
      assert.equal(streamed([...tight]), markdownHtml(tight), 'a short tight list that becomes loose');
    });

    it('normalizes \\r\\n and \\r, also split across chunks', () => {
      assert.equal(streamed(['a\r', '\nb\r\n\r', '\nc\rd']), markdownHtml('a\nb\n\nc\nd'));
    });

    it('step() reports pending work for a long tail and nothing when idle', () => {
      const s = new MarkdownSplitter();
      assert.deepEqual(s.step(), { kept: '', tail: undefined, pending: false });
      s.append('para\n\n'.repeat(windowChars));
      const first = s.step();
      assert.equal(first.pending, true);
      assert.equal(first.tail, undefined);
      assert.ok(first.kept.startsWith('<p>para</p>'));
      assert.equal(s.needsRender, true);
    });
  });

  describe('plain text of a part never rendered (htmlPlainText)', () => {
    // markdown-it ends its HTML with a line break: a text node of its own after the last block, as in the DOM
    it('puts a line break between blocks and none inside one', () => {
      assert.equal(htmlPlainText(markdownHtml('# Title\n\nSome **bold**, *em* and `code` here.\n\n> quoted\n')), 'Title\nSome bold, em and code here.\nquoted\n\n');
    });

    it('puts list items on lines of their own, nested ones too', () => {
      assert.equal(htmlPlainText(markdownHtml('- one\n- two\n  1. inner\n  2. more\n')), 'one\ntwo\ninner\nmore\n\n');
    });

    it('separates table cells with tabs and rows with line breaks', () => {
      assert.equal(htmlPlainText(markdownHtml('| a | b |\n|---|---|\n| 1 | 2 |\n')), 'a\tb\n1\t2\n\n');
    });

    it('keeps code as written, entities decoded', () => {
      assert.equal(htmlPlainText(markdownHtml('```ts\nif (a < b && c > "d") {}\n```\n')), 'if (a < b && c > "d") {}\n\n\n');
      assert.equal(htmlPlainText(markdownHtml('AT&amp;T &copy; &#169; &#xA9; &bogus; <b>\n')), 'AT&T © © © &bogus; <b>\n\n');
    });

    it('is the text of a link, not its target', () => {
      assert.equal(htmlPlainText(markdownHtml('see [the docs](https://example.com/docs) now\n')), 'see the docs now\n\n');
    });
  });
});
