import { assignmentFindings } from "./assignments.js";
import { contextFindings } from "./context-rules.js";
import { entropyFindings } from "./entropy.js";
import { withoutFillers } from "./fillers.js";
import { keyBlockFindings } from "./key-blocks.js";
import { libraryFindings } from "./library-findings.js";
import { literalsOf } from "./literals.js";
import { withoutPublishedSamples } from "./published-samples.js";
import { replaceSpans, type SecretSpan } from "./spans.js";
import { tokenFormatFindings } from "./token-formats.js";

/**
 * Replaces the secrets in text bound for an auxiliary model with `[REDACTED:<kind>]`.
 * Deterministic. Detection is secretlint's recommended rules, then the project's rules for
 * what they do not cover (other providers' formats, credentials named by their context,
 * command lines, netrc, cookies), then a gated entropy check; findings inside a published
 * sample credential (AWS's documented keys, jwt.io's token) and findings that are all filler
 * (`ghp_xxxx...`, `sk-...`) are dropped; the spans are merged
 * so replacements never nest, then replaced in one pass.
 */
export async function redactSecrets(text: string): Promise<string> {
  const spans = await findSecrets(text);
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/**
 * The same for many texts at once (one detection pass over all of them, which costs far less
 * than one per text): each text's spans are cut to its own bounds.
 */
export async function redactSecretsInAll(texts: readonly string[]): Promise<string[]> {
  const joined = texts.join(SEPARATOR);
  const spans = await findSecrets(joined);
  if (spans.length === 0) return [...texts];
  let start = 0;
  return texts.map((text) => {
    const end = start + text.length;
    const own = spans.flatMap((span) =>
      span.end > start && span.start < end ? [{ ...span, start: Math.max(span.start, start) - start, end: Math.min(span.end, end) - start }] : [],
    );
    start = end + SEPARATOR.length;
    return own.length === 0 ? text : replaceSpans(text, own);
  });
}

// Blank lines: no rule reads a secret across them, so a secret never spans two texts.
const SEPARATOR = "\n\n\n";

async function findSecrets(text: string): Promise<SecretSpan[]> {
  const has = literalsOf(text.toLowerCase());
  const spans = [
    ...(await libraryFindings(text, has)),
    ...tokenFormatFindings(text, has),
    ...keyBlockFindings(text),
    ...contextFindings(text, has),
    ...assignmentFindings(text),
    ...entropyFindings(text),
  ];
  return withoutFillers(text, withoutPublishedSamples(text, spans));
}
