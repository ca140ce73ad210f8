import type { AskedSentence } from "./asked-sentences.js";

/** How much of the sentence pointed at a resolved reference shows. */
const REFERENT_CHARS = 140;

/**
 * The sentence as the record keeps it: one that points back at something it does not name
 * ("add a test for that") says what, from its clear referent (the caller's choice), marked as
 * the plug-in's reading, not the user's words: "add a test for that [opencode-rcm reads "that"
 * as: values may be wrapped in double quotes, strip them]". Without a referent it stays as typed.
 */
export function resolvedText(sentence: AskedSentence, referent: string | undefined): string {
  if (!sentence.pointsBack || referent === undefined || referent.trim() === "") return sentence.text;
  const word = /\b(that|this|it|them|those|these|the same)\b/i.exec(sentence.text)?.[1]?.toLowerCase() ?? "that";
  return `${sentence.text} [${READING_MARK} "${word}" as: ${short(withoutReference(referent))}]`;
}

/** How a resolution is marked: the plug-in's reading, never the user's words. */
export const READING_MARK = "opencode-rcm reads";

/** A referent that was itself resolved points at what it was resolved to, not at a chain. */
function withoutReference(text: string): string {
  return text.replace(/\s\[opencode-rcm reads "[^"]*" as: [^[\]]*\]$/, "");
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= REFERENT_CHARS) return flat;
  const cut = flat.slice(0, REFERENT_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > REFERENT_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
