import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/core/redact-secrets.js";

interface CorpusEntry {
  kind: string;
  context: string;
  secret: string;
}

const DIR = join(import.meta.dirname, "..", "..", "fixtures", "secrets");
const readJsonl = <T>(name: string): T[] =>
  readFileSync(join(DIR, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);

/** Fake, format-valid secrets in realistic lines. */
const CORPUS = readJsonl<CorpusEntry>("corpus.jsonl");
/** Ordinary code, config and prose that must come through byte-identical. */
const NEGATIVES = readJsonl<{ note: string; context: string }>("negatives.jsonl");

/** The secret and, for multi-line secrets (key blocks), each of its lines. */
function fragments(secret: string): string[] {
  return [secret, ...secret.split(/\n|\\n/).filter((line) => line.trim().length >= 8)];
}

describe("redactSecrets", () => {
  it("has a corpus of at least 24 secrets of many kinds", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(24);
    expect(new Set(CORPUS.map((entry) => entry.kind)).size).toBeGreaterThanOrEqual(15);
    for (const entry of CORPUS) expect(entry.context).toContain(entry.secret);
  });

  it.each(CORPUS.map((entry, index) => ({ ...entry, index })))("removes corpus secret #$index ($kind)", ({ kind, context, secret }) => {
    const redacted = redactSecrets(context);
    for (const fragment of fragments(secret)) expect(redacted).not.toContain(fragment);
    expect(redacted).toContain(`[REDACTED:${kind}]`);
  });

  it("keeps the surroundings of a secret", () => {
    expect(redactSecrets("DB_PASSWORD=Xk29fLq8Wz!a # local only")).toBe("DB_PASSWORD=[REDACTED:env-secret] # local only");
    expect(redactSecrets('export JWT_SECRET="m3N0pQ7rS9tU"')).toBe('export JWT_SECRET="[REDACTED:env-secret]"');
    expect(redactSecrets('{"client_secret": "m3N0pQ7rS9tU", "client_id": "web"}')).toBe(
      '{"client_secret": "[REDACTED:env-secret]", "client_id": "web"}',
    );
    expect(redactSecrets("postgres://app:Xk29fLq8Wz@db.internal:5432/app")).toBe(
      "postgres://app:[REDACTED:url-password]@db.internal:5432/app",
    );
    expect(redactSecrets("-H 'Authorization: Bearer 9f8e7d6c5b4a39281706'")).toBe("-H 'Authorization: Bearer [REDACTED:bearer-token]'");
    // The value of a harmless `logs:` is also the name of the next assignment.
    expect(redactSecrets('found in the logs: db_password = "gfOGh74118"')).toBe('found in the logs: db_password = "[REDACTED:env-secret]"');
    expect(redactSecrets('"command": "export API_TOKEN=tok9f8e7d6c5b && deploy"')).toBe(
      '"command": "export API_TOKEN=[REDACTED:env-secret] && deploy"',
    );
  });

  it("redacts every secret on a line that holds several", () => {
    const [first, second, third] = CORPUS;
    if (!first || !second || !third) throw new Error("corpus too small");
    const line = [first.context, second.context, third.context].join(" ; ");
    const redacted = redactSecrets(line);
    for (const entry of [first, second, third]) expect(redacted).not.toContain(entry.secret);
  });

  it.each(NEGATIVES)("leaves $note unchanged: $context", ({ context }) => {
    expect(redactSecrets(context)).toBe(context);
  });

  it("leaves a short or numeric value of a secret-named variable alone", () => {
    expect(redactSecrets("PASSWORD=abc")).toBe("PASSWORD=abc");
    expect(redactSecrets("SECRET=123456")).toBe("SECRET=123456");
  });

  it("is idempotent", () => {
    const all = [...CORPUS.map((entry) => entry.context), ...NEGATIVES.map((entry) => entry.context)];
    for (const text of [...all, all.join("\n")]) {
      const once = redactSecrets(text);
      expect(redactSecrets(once)).toBe(once);
    }
  });

  it("is deterministic", () => {
    const text = CORPUS.map((entry) => entry.context).join("\n");
    const first = redactSecrets(text);
    for (let round = 0; round < 3; round += 1) expect(redactSecrets(text)).toBe(first);
  });

  it("stays fast on long text without secrets", () => {
    const minified = JSON.stringify(Array.from({ length: 5_000 }, (_, id) => ({ id, name: `item-${id}`, tags: ["a", "b"] })));
    const text = `${"const value = config.items.map((item) => item.id); token = next; ".repeat(20_000)}${"a.".repeat(50_000)}${minified}`;
    const started = performance.now();
    expect(redactSecrets(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
