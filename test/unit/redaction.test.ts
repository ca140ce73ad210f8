import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRedactionCorpus, scoreRedaction } from "../../src/dev/evaluate-redaction.js";
import { redactSecrets, redactSecretsInAll } from "../../src/plugin/core/redaction/redact-secrets.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const readJsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);

/** The first corpus: one fake secret per earlier rule, and lines that look a little like secrets. */
const RULE_CORPUS = readJsonl<{ kind: string; context: string; secret: string }>(join(FIXTURES, "secrets", "corpus.jsonl"));
const RULE_NEGATIVES = readJsonl<{ note: string; context: string }>(join(FIXTURES, "secrets", "negatives.jsonl"));

/** The secret and, for multi-line secrets (key blocks), each of its lines. */
function fragments(secret: string): string[] {
  return [secret, ...secret.split(/\n|\\n/).filter((line) => line.trim().length >= 8)];
}

describe("redactSecrets on the secrets-world corpus (train split: the part the rules were written against)", () => {
  it("catches every positive and leaves every negative byte for byte, with no marker inside a marker", async () => {
    const corpus = await loadRedactionCorpus(join(FIXTURES, "secrets-world"));
    const train = {
      positives: corpus.positives.filter((entry) => entry.split === "train"),
      negatives: corpus.negatives.filter((entry) => entry.split === "train"),
    };
    expect(train.positives.length).toBeGreaterThanOrEqual(120);
    const score = await scoreRedaction(train, redactSecrets);
    expect(score.missed.map((miss) => miss.id)).toEqual([]);
    expect(score.changed.map((change) => change.id)).toEqual([]);
    expect(score.malformed).toBe(0);
  });
});

describe("redactSecrets", () => {
  it.each(RULE_CORPUS.map((entry, index) => ({ ...entry, index })))("removes first-corpus secret #$index ($kind)", async ({ context, secret }) => {
    const redacted = await redactSecrets(context);
    for (const fragment of fragments(secret)) expect(redacted).not.toContain(fragment);
    expect(redacted).toContain("[REDACTED:");
  });

  it.each(RULE_NEGATIVES)("leaves $note unchanged: $context", async ({ context }) => {
    expect(await redactSecrets(context)).toBe(context);
  });

  it("keeps the surroundings of a secret, and the marker names its kind", async () => {
    expect(await redactSecrets("DB_PASSWORD=Xk29fLq8Wz!a # local only")).toBe("DB_PASSWORD=[REDACTED:assigned-secret] # local only");
    expect(await redactSecrets('{"client_secret": "m3N0pQ7rS9tU", "client_id": "web"}')).toBe(
      '{"client_secret": "[REDACTED:assigned-secret]", "client_id": "web"}',
    );
    // Scheme, user and host stay; the library's connection-string finding is cut to the password.
    expect(await redactSecrets("postgres://app:Xk29fLq8Wz@db.internal:5432/app")).toMatch(/^postgres:\/\/app:\[REDACTED:[\w-]+\]@db\.internal:5432\/app$/);
    expect(await redactSecrets("-H 'Authorization: Bearer 9f8e7d6c5b4a39281706'")).toBe("-H 'Authorization: Bearer [REDACTED:auth-header]'");
    expect(await redactSecrets("mysql -uroot -pS3cretPw9 orders")).toBe("mysql -uroot -p[REDACTED:cli-secret] orders");
    expect(await redactSecrets("machine api.example.com login bot password Zq81xWm4Lp")).toBe(
      "machine api.example.com login bot password [REDACTED:netrc-password]",
    );
  });

  it("never nests markers: a token inside a URL's password is one replacement", async () => {
    const pat = `github_pat_${"A1b2C3d4E5".repeat(2)}_${"x9Y8z7W6v5".repeat(5)}`;
    const redacted = await redactSecrets(`git clone https://bot:${pat}@github.com/org/repo.git`);
    expect(redacted).not.toContain(pat);
    expect(redacted).not.toMatch(/\[REDACTED:[^\]]*\[REDACTED:/);
    expect(redacted.match(/\[REDACTED:/g)).toHaveLength(1);
    expect(redacted).toMatch(/^git clone https:\/\/bot:\[REDACTED:[\w-]+\]@github\.com\/org\/repo\.git$/);
  });

  it.each([
    "PASSWORD=$DB_PASSWORD",
    "API_KEY=${API_KEY}",
    ': "${DB_PASSWORD:?DB_PASSWORD must be set}"',
    "TOKEN=${TOKEN:-}",
    'dsn = f"postgresql://{cfg.user}:{cfg.password}@{cfg.host}/db"',
    'url = "mysql://%s:%s@%s/%s" % (user, password, host, db)',
    'password: "{{ vault_db_password }}"',
    "NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "postgres://<user>:<password>@localhost:5432/app",
    "password: <your-password>",
    "private_key: Ed25519PrivateKey",
    "secretKey: Uint8Array;",
    "token: Optional[str] = None",
    "password = get_password()",
    'api_key = os.environ["API_KEY"]',
    "token = self.token",
    "apiKey: config.openai.apiKey,",
    'authorization = request.headers.get("Authorization")',
    'credentials: "same-origin",',
    '"eos_token": "</s>",',
    'existingSecret: "my-release-postgresql"',
    "PASSWORD=abc",
    "SECRET=123456",
    'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
    '"Authorization": f"Bearer {token}",',
    "Authorization: `Bearer ${process.env.API_TOKEN}`,",
    "Authorization: `Bearer ${oauth2AccessTokenForServiceAccount}`,",
    "Authorization: Bearer __GITHUB_TOKEN_2__",
    "  id-token: write",
  ])("leaves a reference or a placeholder alone: %s", async (line) => {
    expect(await redactSecrets(line)).toBe(line);
  });

  it("leaves the exact published sample credentials alone, and nothing that merely resembles them", async () => {
    const jwtIo =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk5yJV_adQssw5c";
    for (const line of [
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      `curl -H "Authorization: Bearer ${jwtIo}" http://localhost:8080/me`,
      "stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'",
      'Sentry.init({ dsn: "https://examplePublicKey@o0.ingest.sentry.io/0" });',
    ]) {
      expect(await redactSecrets(line)).toBe(line);
    }
    // The same shapes with other characters are somebody's keys.
    expect(await redactSecrets(`token = "${jwtIo.slice(0, -4)}Xw5d"`)).toBe('token = "[REDACTED:jwt]"');
    expect(await redactSecrets("stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dX'")).toBe("stripe.api_key = '[REDACTED:stripe-key]'");
    expect(await redactSecrets("NEXT_PUBLIC_STRIPE_KEY=pk_live_9Fq2LmXw81TzKd0aVb7NcYe3")).toBe("NEXT_PUBLIC_STRIPE_KEY=[REDACTED:stripe-key]");
  });

  it("redacts many texts in one pass exactly as one by one", async () => {
    const texts = [...RULE_CORPUS.map((entry) => entry.context), ...RULE_NEGATIVES.map((entry) => entry.context), "", "ordinary"];
    const one = await Promise.all(texts.map((text) => redactSecrets(text)));
    expect(await redactSecretsInAll(texts)).toEqual(one);
  });

  it("is idempotent and deterministic", async () => {
    const all = [...RULE_CORPUS.map((entry) => entry.context), ...RULE_NEGATIVES.map((entry) => entry.context)];
    for (const text of [...all, all.join("\n")]) {
      const once = await redactSecrets(text);
      expect(await redactSecrets(once)).toBe(once);
      expect(await redactSecrets(text)).toBe(once);
    }
  });

  it("does not backtrack for long on huge text without secrets", async () => {
    const minified = JSON.stringify(Array.from({ length: 5_000 }, (_, id) => ({ id, name: `item-${id}`, tags: ["a", "b"] })));
    const text = `${"const value = config.items.map((item) => item.id); token = next; ".repeat(20_000)}${"a.".repeat(50_000)}${minified}`;
    const started = performance.now();
    expect(await redactSecrets(text)).toBe(text);
    // A guard against catastrophic backtracking, not a speed target (see scripts/bench-redaction.mjs).
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
