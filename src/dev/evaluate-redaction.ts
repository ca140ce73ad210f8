import { join } from "node:path";
import { RcmError } from "../kit/errors/rcm-error.js";
import { atLine, readJsonl } from "../lab/jsonl/read-jsonl.js";

/** A text that holds secrets, each of which must be gone after redaction. */
export interface PositiveEntry {
  id: string;
  split: string;
  family: string;
  format: string;
  context: string;
  secrets: string[];
}

/** A text with no secret, which must come through byte for byte. */
export interface NegativeEntry {
  id: string;
  split: string;
  family: string;
  language: string;
  note: string;
  context: string;
}

interface FamilyScore {
  family: string;
  positives: number;
  caught: number;
  negatives: number;
  intact: number;
}

export interface RedactionScore {
  positives: number;
  caught: number;
  secrets: number;
  secretsRemoved: number;
  negatives: number;
  intact: number;
  /** Outputs with a marker inside a marker (`[REDACTED:[REDACTED:...`). */
  malformed: number;
  families: FamilyScore[];
  missed: { id: string; leaked: string[]; output: string }[];
  changed: { id: string; output: string }[];
}

/** Reads a corpus directory's `positives.jsonl` and `negatives.jsonl`, naming the file and line of a bad entry. */
export async function loadRedactionCorpus(dir: string): Promise<{ positives: PositiveEntry[]; negatives: NegativeEntry[] }> {
  const read = async <T>(name: string, check: (value: Record<string, unknown>) => string | undefined): Promise<T[]> => {
    const path = join(dir, name);
    return (await readJsonl(path)).map((entry) => {
      if (!entry.ok) throw new RcmError("corpus", atLine(path, entry.line, `not JSON: ${entry.reason}`));
      const value = entry.value;
      const problem = typeof value !== "object" || value === null ? "not an object" : check(value as Record<string, unknown>);
      if (problem) throw new RcmError("corpus", atLine(path, entry.line, problem));
      return value as T;
    });
  };
  const strings = (value: Record<string, unknown>, fields: string[]) => fields.find((field) => typeof value[field] !== "string");
  const positives = await read<PositiveEntry>("positives.jsonl", (value) => {
    const missing = strings(value, ["id", "split", "family", "format", "context"]);
    if (missing) return `field "${missing}" must be a string`;
    const secrets = value.secrets;
    if (!Array.isArray(secrets) || secrets.length === 0 || !secrets.every((secret) => typeof secret === "string" && secret !== ""))
      return `field "secrets" must be a non-empty list of strings`;
    const absent = secrets.find((secret) => !(value.context as string).includes(secret));
    return absent === undefined ? undefined : `field "secrets": "${absent}" is not in the context`;
  });
  const negatives = await read<NegativeEntry>("negatives.jsonl", (value) => {
    const missing = strings(value, ["id", "split", "family", "context"]);
    return missing ? `field "${missing}" must be a string` : undefined;
  });
  return { positives, negatives };
}

/** Runs `redact` over the corpus: an entry is caught when none of its secrets survives, intact when unchanged. */
export async function scoreRedaction(
  corpus: { positives: readonly PositiveEntry[]; negatives: readonly NegativeEntry[] },
  redact: (text: string) => Promise<string>,
): Promise<RedactionScore> {
  const families = new Map<string, FamilyScore>();
  const family = (name: string) => {
    let score = families.get(name);
    if (!score) {
      score = { family: name, positives: 0, caught: 0, negatives: 0, intact: 0 };
      families.set(name, score);
    }
    return score;
  };
  const score: RedactionScore = {
    positives: 0,
    caught: 0,
    secrets: 0,
    secretsRemoved: 0,
    negatives: 0,
    intact: 0,
    malformed: 0,
    families: [],
    missed: [],
    changed: [],
  };
  for (const entry of corpus.positives) {
    const output = await redact(entry.context);
    const leaked = entry.secrets.filter((secret) => output.includes(secret));
    const row = family(entry.family);
    row.positives += 1;
    score.positives += 1;
    score.secrets += entry.secrets.length;
    score.secretsRemoved += entry.secrets.length - leaked.length;
    if (output.includes("[REDACTED:[REDACTED:")) score.malformed += 1;
    if (leaked.length === 0) {
      row.caught += 1;
      score.caught += 1;
    } else score.missed.push({ id: entry.id, leaked, output });
  }
  for (const entry of corpus.negatives) {
    const output = await redact(entry.context);
    const row = family(entry.family);
    row.negatives += 1;
    score.negatives += 1;
    if (output === entry.context) {
      row.intact += 1;
      score.intact += 1;
    } else score.changed.push({ id: entry.id, output });
  }
  score.families = [...families.values()].sort((a, b) => a.family.localeCompare(b.family));
  return score;
}
