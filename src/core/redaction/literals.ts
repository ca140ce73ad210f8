/**
 * Whether a literal occurs in a text (lower-cased), each literal searched once per text: the
 * detectors share many (`ghp_`, `npm_`, `://`), and a detector whose literal is absent does
 * not run. A plain search per literal: a single alternation of them all is slower in Bun.
 */
export type Literals = (literal: string) => boolean;

export function literalsOf(lower: string): Literals {
  const known = new Map<string, boolean>();
  return (literal) => {
    const key = literal.toLowerCase();
    let found = known.get(key);
    if (found === undefined) known.set(key, (found = lower.includes(key)));
    return found;
  };
}
