import { closestKey } from "../config/closest-key.js";
import { RCM_VERBS, type RcmVerb, rcmVerb } from "./rcm-verbs.js";

/** What `/rcm <words>` asks for: a verb with its words, the menu (nothing typed), or a word that is no verb. */
export type TypedVerb = { kind: "verb"; verb: RcmVerb; words: string[] } | { kind: "menu" } | { kind: "unknown"; word: string; suggestion?: string };

/** Reads what follows `/rcm`: the verb (any case), its words; a typo gets the nearest verb as a suggestion. */
export function parseTypedVerb(line: string): TypedVerb {
  const [first, ...words] = line.trim().split(/\s+/).filter(Boolean);
  if (first === undefined) return { kind: "menu" };
  const name = first.toLowerCase();
  const verb = rcmVerb(name);
  if (verb) return { kind: "verb", verb, words };
  const suggestion = closestKey(name, [...RCM_VERBS.map((known) => known.name), "help"]);
  return { kind: "unknown", word: first, ...(suggestion ? { suggestion } : {}) };
}

/** The one-line hint for a word that is no verb. */
export function unknownVerbHint(typed: Extract<TypedVerb, { kind: "unknown" }>, command: string): string {
  const known = [...RCM_VERBS.map((verb) => verb.name), "help"].join(", ");
  return `/${command} ${typed.word}: no such command${typed.suggestion ? `; did you mean /${command} ${typed.suggestion}?` : ""} (${known})`;
}
