/**
 * Splits `text` into `count` chunks for streaming: at word boundaries when there are enough words,
 * else by characters (never inside a surrogate pair). Joining the chunks gives back `text`. Returns
 * fewer chunks only when the text is shorter than `count` characters.
 */
export function textChunks(text: string, count: number): string[] {
  if (count <= 1 || text.length === 0) {
    return [text];
  }
  const words = text.match(/\s*\S+\s*/g) ?? [];
  const pieces = words.join('') === text && words.length >= count ? words : Array.from(text);
  const n = Math.min(count, pieces.length);
  const chunks: string[] = [];
  for (let i = 0; i < n; i++) {
    const start = Math.floor((i * pieces.length) / n);
    const end = Math.floor(((i + 1) * pieces.length) / n);
    chunks.push(pieces.slice(start, end).join(''));
  }
  return chunks;
}
