import { contentWords, withoutUrls } from "./signals.js";

/**
 * Two-word phrases of a text: adjacent content words within one clause ("the date
 * parser" gives "date parser"). Punctuation ends a clause, so "parser. Dates" is no phrase.
 */
export function phrasesOf(text: string): string[] {
  const phrases = new Set<string>();
  for (const clause of withoutUrls(text).split(/[.,;:!?()[\]{}"\n]+|\s-\s/)) {
    const words = contentWords(clause);
    for (let position = 1; position < words.length; position += 1) {
      const first = words[position - 1] as string;
      const second = words[position] as string;
      if (first !== second) phrases.add(`${first} ${second}`);
    }
  }
  return [...phrases].sort();
}
