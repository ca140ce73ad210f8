import type { AskedSentence } from "./asked-sentences.js";

/** How much of the sentence pointed at a resolved reference shows. */
const REFERENT_CHARS = 140;

/**
 * The sentence as the record keeps it: one that points back at something it does not name
 * ("add a test for that") says what, from the sentence it follows (the request's previous
 * asked sentence, or the task's latest requirement): "add a test for that (that: values may
 * be wrapped in double quotes, strip them)". Without anything to point at, it stays as is.
 */
export function resolvedText(sentence: AskedSentence, referent: string | undefined): string {
  if (!sentence.pointsBack || referent === undefined || referent.trim() === "") return sentence.text;
  const word = /\b(that|this|it|them|those|these|the same)\b/i.exec(sentence.text)?.[1]?.toLowerCase() ?? "that";
  return `${sentence.text} (${word}: ${short(withoutReference(referent))})`;
}

/** A referent that was itself resolved points at what it was resolved to, not at a chain. */
function withoutReference(text: string): string {
  return text.replace(/\s\((?:that|this|it|them|those|these|the same): [^()]*\)$/, "");
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= REFERENT_CHARS) return flat;
  const cut = flat.slice(0, REFERENT_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > REFERENT_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
