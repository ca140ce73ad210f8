import { distance } from "fastest-levenshtein";

/**
 * The known key a typo most likely meant: the nearest by edit distance (case-insensitive),
 * if it is near enough to be a slip of the keyboard rather than another word.
 */
export function closestKey(typed: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const d = distance(typed.toLowerCase(), key.toLowerCase());
    if (best === undefined || d < best.distance) best = { key, distance: d };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(typed.length / 4)) ? best.key : undefined;
}
