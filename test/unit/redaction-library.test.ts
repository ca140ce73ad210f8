import { rules } from "@secretlint/secretlint-rule-preset-recommend";
import { describe, expect, it } from "vitest";
import { libraryFindings, RULE_GATES } from "../../src/plugin/core/redaction/library-findings.js";

// Tokens in each provider's shape (fake), to fire secretlint's rules through the gates.
const chars = (alphabet: string, length: number, offset = 0) => Array.from({ length }, (_, index) => alphabet[(index * 7 + offset) % alphabet.length]).join("");
const ALNUM = "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zCfL";
const HEX = "0123456789abcdef";

const SAMPLES: Record<string, string> = {
  npm: `//registry.npmjs.org/:_authToken=npm_${chars(ALNUM, 36)}`,
  sendgrid: `SENDGRID=SG.${chars(ALNUM, 22)}.${chars(ALNUM, 43, 3)}`,
  shopify: `token shpat_${chars(HEX, 32)}`,
  github: `token ghp_${chars(ALNUM, 36)}`,
  gitlab: `token glpat-${chars(ALNUM, 20)}`,
  grafana: `token glsa_${chars(ALNUM, 32)}_${chars(HEX, 8)}`,
  anthropic: `key sk-ant-api03-${chars(ALNUM, 93)}AA`,
  groq: `key gsk_${chars(ALNUM, 52)}`,
  huggingface: `token hf_${chars("abcdefghijKLMNOPQRSTuvwxyz", 34)}`,
  linear: `key lin_api_${chars(ALNUM, 40)}`,
  notion: `key ntn_${chars("0123456789", 11)}${chars(ALNUM, 35)}`,
  "hashicorp-vault": `VAULT_TOKEN=hvs.${chars(ALNUM, 95)}`,
  vercel: `token vcp_${chars(ALNUM, 30)}`,
  databricks: `token dapi${chars(HEX, 32)}`,
  docker: `token dckr_pat_${chars(ALNUM, 27)}`,
  figma: `token figd_${chars(ALNUM, 45)}`,
  aws: `aws_secret_access_key = ${chars(ALNUM, 40)}`,
  slack: `SLACK=xoxb-1234567890-1234567890123-${chars(ALNUM, 24)}`,
  privatekey: `-----BEGIN RSA PRIVATE KEY-----\nMII${chars(ALNUM, 64)}\n${chars(ALNUM, 64, 5)}\n-----END RSA PRIVATE KEY-----`,
  basicauth: "git remote add origin https://deploy:Tq8wZ3kLp9Xm@git.example.com/app.git",
  "database-connection-string": "DATABASE_URL=postgres://app:Tq8wZ3kLp9Xm@db.example.com:5432/app",
};

describe("secretlint's recommended rules behind the plug-in's gates", () => {
  it("has a gate for every rule of the pinned preset (a new rule must be looked at)", () => {
    const names = rules.map((rule) => rule.meta.id.replace("@secretlint/secretlint-rule-", "")).filter((name) => name !== "filter-comments");
    expect(Object.keys(RULE_GATES).sort()).toEqual(names.sort());
  });

  it.each(Object.entries(SAMPLES))("fires %s on its format, through its gate", async (name, text) => {
    const kinds = (await libraryFindings(text)).map((span) => span.kind);
    expect(kinds).toContain(name);
  });
});
