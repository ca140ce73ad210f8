/**
 * Chat shorthand spelled out, for telling what a sentence is ("shld be users tz", "pls dont
 * touch X"): the record keeps the user's own spelling, only the classifier reads this. Word
 * for word, never across punctuation, so sentences split the same way in both.
 */
const SPELLED: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:pls|plz|plse)\b/gi, "please"],
  [/\b(?:shld|shd|shoud)\b/gi, "should"],
  [/\bmst\b/gi, "must"],
  [/\bdont\b/gi, "don't"],
  [/\bdoesnt\b/gi, "doesn't"],
  [/\bcant\b/gi, "can't"],
  [/\bwont\b/gi, "won't"],
  [/\bisnt\b/gi, "isn't"],
  [/\bshouldnt\b/gi, "shouldn't"],
  [/\bim\b/g, "I'm"],
  [/\bive\b/g, "I've"],
  [/\bu\b/g, "you"],
  [/\bur\b/g, "your"],
  [/\bw\/o\b/gi, "without"],
  [/\bw\/(?=\s)/gi, "with"],
  [/\b(?:thx|tnx|ty)\b/gi, "thanks"],
  [/\bb4\b/gi, "before"],
  [/\b(?:cuz|coz|bc)\b/gi, "because"],
  [/\brn\b/g, "right now"],
  [/\bidk\b/gi, "I don't know"],
  [/\bnvm\b/gi, "never mind"],
];

export function spelledOut(text: string): string {
  let out = text.replace(/\p{Extended_Pictographic}\uFE0F?/gu, "");
  for (const [pattern, word] of SPELLED) out = out.replace(pattern, word);
  return out;
}
