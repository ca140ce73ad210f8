import { lintSource } from "@secretlint/core";
import { rules as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { type Literals, literalsOf } from "./literals.js";
import { isTemplate } from "./references.js";
import type { SecretSpan } from "./spans.js";

const RULE_PREFIX = "@secretlint/secretlint-rule-";
type Rule = (typeof recommended)[number];

/**
 * When each recommended rule can match at all: text it needs (compared case-insensitively),
 * and whether it reads a secret from its surroundings (a key name, a URL, a key block over
 * several lines) or from a token alone. The rules' patterns use look-behinds with Unicode
 * classes, which Bun (OpenCode's runtime) runs in its regex interpreter, tens of times slower
 * than V8: each rule runs only where its literal occurs, a token rule only over the token-like
 * runs that hold it. A rule missing here runs on the whole text. The literals come from the
 * pinned version's patterns; test/unit/redaction-library.test.ts fires every rule through this.
 */
export const RULE_GATES: Record<string, { literals: string[]; scope: "text" | "tokens" }> = {
  aws: { literals: ["akia", "asia", "a3t", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "secret", "account"], scope: "text" },
  gcp: { literals: ["private_key"], scope: "text" },
  privatekey: { literals: ["private key"], scope: "text" },
  basicauth: { literals: ["://"], scope: "text" },
  "database-connection-string": { literals: ["://", "server=", "data source="], scope: "text" },
  slack: { literals: ["xox", "xapp-", "hooks.slack.com"], scope: "text" },
  openai: { literals: ["t3blbkfj"], scope: "text" },
  npm: { literals: ["npm_", "_authtoken", "x-oauth-basic"], scope: "text" },
  sendgrid: { literals: ["sg."], scope: "tokens" },
  shopify: { literals: ["shppa_", "shpca_", "shpat_", "shpss_"], scope: "tokens" },
  github: { literals: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"], scope: "tokens" },
  gitlab: { literals: ["glpat-"], scope: "tokens" },
  grafana: { literals: ["glc_", "glsa_"], scope: "tokens" },
  anthropic: { literals: ["sk-ant-api0"], scope: "tokens" },
  groq: { literals: ["gsk_"], scope: "tokens" },
  huggingface: { literals: ["hf_"], scope: "tokens" },
  linear: { literals: ["lin_api_"], scope: "tokens" },
  notion: { literals: ["ntn_"], scope: "tokens" },
  "1password": { literals: ["ops_ey"], scope: "tokens" },
  "hashicorp-vault": { literals: ["hvs.", "hvb.", "hvr."], scope: "tokens" },
  vercel: { literals: ["vcp_", "vci_", "vca_", "vcr_", "vck_"], scope: "tokens" },
  databricks: { literals: ["dapi"], scope: "tokens" },
  docker: { literals: ["dckr_pat_"], scope: "tokens" },
  figma: { literals: ["figd_"], scope: "tokens" },
};

// `secretlint-disable` comments in a session's text must not hide a secret from redaction.
const SKIPPED = new Set(["filter-comments"]);
const RULES = recommended.flatMap((rule) => {
  const name = rule.meta.id.replace(RULE_PREFIX, "");
  return SKIPPED.has(name) ? [] : [{ rule, name, gate: RULE_GATES[name] }];
});

/** Runs of token characters: where a provider's token can sit. */
const TOKEN_RUN = /[\w.+/=:~-]{8,}/g;

/** The secrets that secretlint's recommended rules find in `text`. */
export async function libraryFindings(text: string, has: Literals = literalsOf(text.toLowerCase())): Promise<SecretSpan[]> {
  const present = (literals: readonly string[]) => literals.some(has);
  const wholeText = RULES.filter(({ gate }) => gate === undefined || (gate.scope === "text" && present(gate.literals)));
  const tokenRules = RULES.filter(({ gate }) => gate?.scope === "tokens" && present(gate.literals));
  const spans = await lint(
    text,
    wholeText.map(({ rule }) => rule),
  );
  if (tokenRules.length > 0) {
    const literals = tokenRules.flatMap(({ gate }) => gate?.literals ?? []);
    const { joined, toOriginal } = runsHolding(text, literals);
    for (const span of await lint(
      joined,
      tokenRules.map(({ rule }) => rule),
    ))
      spans.push({ ...span, start: toOriginal(span.start), end: toOriginal(span.end) });
  }
  return spans;
}

async function lint(content: string, rules: readonly Rule[]): Promise<SecretSpan[]> {
  if (rules.length === 0 || content === "") return [];
  const result = await lintSource({
    source: { filePath: "/rcm-aux-request.txt", content, contentType: "text" },
    options: { config: { rules: rules.map((rule) => ({ id: rule.meta.id, rule, options: {} })) }, maskSecrets: false },
  });
  return result.messages.flatMap((message) => {
    const kind = (message.ruleId ?? "secret").replace(RULE_PREFIX, "");
    const range = narrowToPassword(content, secretRange(content, message.range, message.data));
    // Documentation's `postgres://<user>:<password>@host` is a template, not a credential.
    return isTemplate(content.slice(range.start, range.end)) ? [] : [{ ...range, kind }];
  });
}

/**
 * Where the secret itself is. Some rules report a range that starts at the key's name with
 * the secret's length (aws); the secret's own text, in the message data, says where it is.
 */
function secretRange(content: string, range: readonly [number, number], data: unknown): { start: number; end: number } {
  const values = data && typeof data === "object" ? Object.values(data).filter((value): value is string => typeof value === "string" && value.length >= 8) : [];
  for (const value of values.sort((a, b) => b.length - a.length)) {
    const at = content.indexOf(value, Math.max(0, range[0] - value.length));
    if (at >= 0 && at <= range[1]) return { start: at, end: at + value.length };
  }
  return { start: range[0], end: range[1] };
}

/** A connection string keeps its scheme, user and host: only its password is the secret. */
function narrowToPassword(content: string, range: { start: number; end: number }): { start: number; end: number } {
  const password = /^[a-z][\w+.-]*:\/\/[^\s:@/]*:([^\s@/]+)@/di.exec(content.slice(range.start, range.end));
  const at = password?.indices?.[1];
  return at ? { start: range.start + at[0], end: range.start + at[1] } : range;
}

/** The token runs of `text` that hold one of `literals`, one per line, with a map back to `text`'s offsets. */
function runsHolding(text: string, literals: readonly string[]): { joined: string; toOriginal: (offset: number) => number } {
  const starts: number[] = [];
  const origins: number[] = [];
  let joined = "";
  TOKEN_RUN.lastIndex = 0;
  for (let found = TOKEN_RUN.exec(text); found !== null; found = TOKEN_RUN.exec(text)) {
    const run = found[0].toLowerCase();
    if (!literals.some((literal) => run.includes(literal))) continue;
    starts.push(joined.length);
    origins.push(found.index);
    joined += `${found[0]}\n`;
  }
  const toOriginal = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return (origins[low] ?? 0) + offset - (starts[low] ?? 0);
  };
  return { joined, toOriginal };
}
