// @ts-check
// The streamed answer of the benchmarks: about 200 bytes of typical agent Markdown per chunk (headings,
// paragraphs with inline code and links, lists, fenced code, tables, quotes), cut anywhere like tokens, the
// last chunk ending with {@link MARKER}. Shared by the webview-only render bench (renderBench.mjs) and the
// end-to-end bench's agent (e2e/streamAgent.mjs), so both stream exactly the same text.

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

/** `n` chunks of about 200 bytes (150–250, cut anywhere, like tokens), the last one ending with the marker. */
export function makeChunks(n) {
  const rand = prng(n);
  const sizes = Array.from({ length: n }, () => 150 + Math.floor(rand() * 101));
  const total = sizes.reduce((a, b) => a + b, 0);
  let text = '';
  for (let k = 1; text.length < total; k++) text += section(k);
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
