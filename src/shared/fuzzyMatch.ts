/**
 * A small fuzzy matcher for pickers (the @-mention file picker, the slash-command menu): every query
 * character must appear in order; consecutive runs, matches at word starts and matches in the last path
 * segment score higher, and shorter candidates win ties. Pure, no DOM, no vscode.
 */

const boundary = /[\\/._\-\s]/;

/**
 * Scores `candidate` against `query` (case-insensitive); undefined when it does not match. An empty query
 * matches everything with score 0.
 */
export function fuzzyScore(query: string, candidate: string): number | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return 0;
  const lastSegment = Math.max(candidate.lastIndexOf('/'), candidate.lastIndexOf('\\')) + 1;
  const whole = greedyScore(q, candidate, 0);
  if (whole === undefined) return undefined;
  // a match inside the file name alone beats one spread over the folders
  const inName = lastSegment > 0 ? greedyScore(q, candidate, lastSegment) : undefined;
  const name = candidate.slice(lastSegment).toLowerCase();
  let score = Math.max(whole, inName !== undefined ? inName + 5 : -Infinity);
  if (name.startsWith(q)) score += 10;
  if (name === q || name.slice(0, name.lastIndexOf('.')) === q) score += 10; // the whole name (without extension)
  return score - candidate.length * 0.01;
}

/** Matches the query's characters left to right from `from`; runs and word starts score higher. */
function greedyScore(q: string, candidate: string, from: number): number | undefined {
  const c = candidate.toLowerCase();
  let score = 0;
  let ci = from;
  let run = 0;
  for (const ch of q) {
    const found = c.indexOf(ch, ci);
    if (found === -1) return undefined;
    const atBoundary = found === 0 || boundary.test(c[found - 1]) || (candidate[found] !== c[found] && candidate[found - 1] === c[found - 1]);
    run = found === ci && ci > from ? run + 1 : 0;
    score += 1 + run * 3 + (atBoundary ? 4 : 0) - Math.min(found - ci, 5) * 0.2;
    ci = found + 1;
  }
  return score;
}

/** The candidates that match `query`, best first (stable for equal scores), at most `limit`. */
export function fuzzyFilter<T>(query: string, items: readonly T[], text: (item: T) => string, limit = Infinity): T[] {
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const score = fuzzyScore(query, text(item));
    if (score !== undefined) scored.push({ item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.item);
}
