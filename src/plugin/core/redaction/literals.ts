/**
 * Whether a literal occurs in a text (lower-cased), each literal searched once per text: the
 * detectors share many (`ghp_`, `npm_`, `://`), and a detector whose literal is absent does
 * not run. One pass first marks every three-character sequence of the text in a table, so
 * most absent literals are ruled out without a search (a single alternation of all the
 * literals is slower in Bun, and a hundred plain searches cost more than the detectors).
 */
export type Literals = (literal: string) => boolean;

const TABLE_SIZE = 1 << 16;

export function literalsOf(lower: string): Literals {
  const seen = new Uint8Array(TABLE_SIZE);
  for (let index = 0; index + 2 < lower.length; index += 1) seen[trigram(lower, index)] = 1;
  const known = new Map<string, boolean>();
  return (literal) => {
    const key = literal.toLowerCase();
    let found = known.get(key);
    if (found === undefined) {
      // A zero entry proves absence; a one may be another sequence's collision, so search.
      found = key.length >= 3 && seen[trigram(key, 0)] === 0 ? false : lower.includes(key);
      known.set(key, found);
    }
    return found;
  };
}

function trigram(text: string, at: number): number {
  return (Math.imul(Math.imul(text.charCodeAt(at), 31) + text.charCodeAt(at + 1), 31) + text.charCodeAt(at + 2)) & (TABLE_SIZE - 1);
}
