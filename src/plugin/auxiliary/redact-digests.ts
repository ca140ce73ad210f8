import { mapDigestTexts } from "../core/memory/batches.js";
import type { GroupDigest } from "../core/memory/group-digest.js";
import { redactSecretsInAll } from "./redact-lazily.js";

/** The digests with every text (request, assistant words, tool inputs and outputs) redacted, in one detection pass. */
export async function redactDigests(batch: readonly GroupDigest[]): Promise<GroupDigest[]> {
  const texts: string[] = [];
  for (const group of batch)
    mapDigestTexts(group, (text) => {
      texts.push(text);
      return text;
    });
  const redacted = await redactSecretsInAll(texts);
  let next = 0;
  return batch.map((group) => mapDigestTexts(group, (text) => redacted[next++] ?? text));
}
