// @ts-check
// The streamed answers of the benchmarks: about 200 bytes of agent Markdown per chunk, cut anywhere like
// tokens, the last chunk ending with {@link MARKER}. Shared by the webview-only render bench (renderBench.mjs)
// and the end-to-end bench's agent (e2e/streamAgent.mjs), so both stream exactly the same text.
// Shapes ({@link SHAPES}): `bench` (this bench's original answer: headings, paragraphs with inline code and
// links, a list, fenced code, a table, a quote), `mix` (what an independent bench streams: headings,
// emphasis, links, inline code, nested and ordered lists, fenced code, quotes, non-ASCII text), `prose`,
// `lists` (nested, ordered and not), `code` (long fences), `tables`, and `agent` (an answer written the way
// coding agents write them: a summary, per-file changes with diffs, steps, a closing note; hand-written in
// that style, as no real agent runs offline here).

/** The text the last chunk ends with. */
export const MARKER = 'END-OF-BENCH';

/** A deterministic PRNG (mulberry32). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = ['parser', 'session', 'terminal', 'render', 'config', 'thread', 'webview', 'agent', 'diff', 'editor'];
/** Section k of the generated answer (about 700 bytes of typical agent Markdown). */
export function section(k) {
  const w = words[k % words.length];
  const W = w[0].toUpperCase() + w.slice(1);
  return `## Step ${k}: update the ${w} module

The **${w}** module keeps its state in \`state.${w}\` and reads [the docs](https://example.com/docs/${k}) before it writes. See \`src/${w}/index.ts:${k}\` for the entry point; it calls *render* once per frame and never blocks.

- read the file \`src/${w}.ts\`
- change the \`handle${W}${k}()\` function
- run the tests with \`npm test\`

\`\`\`ts
export function handle${W}${k}(input: string): number {
  const parts = input.split(',');
  return parts.length + ${k};
}
\`\`\`

| name | value |
|------|------:|
| step | ${k} |
| size | ${k * 3} |

> Note: this is step ${k} of many.

`;
}

const names = ['Ærøskøbing', 'Zürich', 'Kraków', 'İstanbul', 'São Paulo', 'Tōkyō 東京', 'Αθήνα', 'Москва', 'Đà Nẵng', 'Reykjavík'];

/** Section k of the `mix` shape: what an independent bench streams (about 600 bytes). @param {number} k */
function mixSection(k) {
  const w = words[k % words.length];
  const place = names[k % names.length];
  return `### ${k}. The ${w} — ${place}

Some *emphasis*, some **strong text** and a [link to ${w}](https://example.com/${w}/${k}); \`inline_${w}()\` keeps “quotes” and naïve café text — ${place}.

1. first, open \`src/${w}.ts\`
   - check the *${w}* guard
   - then the **fallback**, then [the spec](https://example.com/spec#${k})
2. second, run it
   1. with \`--fast\`
   2. without it: ${place} ✓

\`\`\`js
const ${w}${k} = load('${w}', { retries: ${k % 7} });
\`\`\`

> ${place}: step ${k} — done.

`;
}

/** Section k of the `prose` shape: paragraphs only. @param {number} k */
function proseSection(k) {
  const w = words[k % words.length];
  return `The ${w} layer reads its input once and keeps the result, so that a later call is cheap; when the input changes it starts again from the first line, which is rare. This is paragraph ${k}, with *some emphasis* and a [link](https://example.com/${k}) in it.

`;
}

/** Section k of the `lists` shape: nested lists, ordered and not. @param {number} k */
function listSection(k) {
  const w = words[k % words.length];
  return `- ${w} item ${k}
  - nested \`${w}.${k}\`
    1. deeper, ordered
    2. and **strong**
  - back one level
- another item with [a link](https://example.com/${k})

`;
}

/** Section k of the `code` shape: long fences. @param {number} k */
function codeSection(k) {
  const w = words[k % words.length];
  const lines = Array.from({ length: 24 }, (_, i) => `  const ${w}${i} = compute${k}(${i}, '${w}'); // line ${i}`).join('\n');
  return `\`\`\`ts
export function run${k}(): void {
${lines}
}
\`\`\`

`;
}

/** Section k of the `tables` shape. @param {number} k */
function tableSection(k) {
  const rows = Array.from({ length: 6 }, (_, i) => `| ${words[(k + i) % words.length]} | \`${k}.${i}\` | ${k * i} | *ok* |`).join('\n');
  return `| module | version | size | state |
|--------|---------|-----:|:-----:|
${rows}

`;
}

/** Section k of the `agent` shape: how coding agents write a long answer (hand-written in that style). @param {number} k */
function agentSection(k) {
  const w = words[k % words.length];
  const W = w[0].toUpperCase() + w.slice(1);
  return `I'll look at how \`${w}\` is wired before changing it.

**Changes in \`src/${w}/${w}${k}.ts\`:**

- Moved the parsing into \`parse${W}()\` so it can be tested alone
- \`handle${W}\` now returns early on empty input

\`\`\`diff
-  if (input) {
-    return parse(input);
-  }
+  if (!input) return undefined;
+  return parse${W}(input);
\`\`\`

Next steps:
1. Run \`npm test -- ${w}\` ✅
2. Check the ${w} docs for the old name

`;
}

/** The shapes of answer, each a function of the section number. */
export const SHAPES = /** @type {const} */ ({ bench: section, mix: mixSection, prose: proseSection, lists: listSection, code: codeSection, tables: tableSection, agent: agentSection });
/** @typedef {keyof typeof SHAPES} Shape */

/**
 * `n` chunks of about 200 bytes (150–250, cut anywhere, like tokens), the last one ending with the marker.
 * @param {number} n
 * @param {Shape} [shape]
 */
export function makeChunks(n, shape = 'bench') {
  const make = SHAPES[shape];
  if (!make) throw new Error(`unknown shape ${shape} (one of ${Object.keys(SHAPES).join(', ')})`);
  const rand = prng(n);
  const sizes = Array.from({ length: n }, () => 150 + Math.floor(rand() * 101));
  const total = sizes.reduce((a, b) => a + b, 0);
  let text = '';
  for (let k = 1; text.length < total; k++) text += make(k);
  text = `${text.slice(0, total - MARKER.length - 4)}\n\n${MARKER}\n`;
  const chunks = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const end = i === n - 1 ? text.length : at + sizes[i];
    chunks.push(text.slice(at, end));
    at = end;
  }
  return { chunks, bytes: text.length };
}
