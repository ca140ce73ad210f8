import { type Literals, literalsOf } from "./literals.js";
import { groupSpans, type SecretSpan } from "./spans.js";

/**
 * Credentials recognisable by their own shape (a provider's prefix, length and alphabet) that
 * secretlint's recommended rules do not know, or know only in an older format. A token must
 * not be glued to a longer word: `task-...` never yields `sk-...`.
 */
const FORMATS: { kind: string; body: string; literals: string[] | undefined }[] = [
  { kind: "openai-key", body: String.raw`sk-(?:proj-|svcacct-|admin-)?(?=[\w-]*\d)[\w-]{20,}`, literals: ["sk-"] },
  { kind: "deepseek-key", body: String.raw`sk-[0-9a-f]{32}`, literals: ["sk-"] },
  { kind: "google-api-key", body: String.raw`AIza[\w-]{35}`, literals: ["AIza"] },
  { kind: "google-oauth-secret", body: String.raw`GOCSPX-[\w-]{20,}`, literals: ["GOCSPX-"] },
  { kind: "google-oauth-token", body: String.raw`ya29\.[\w-]{20,}`, literals: ["ya29."] },
  { kind: "github-token", body: String.raw`gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,}`, literals: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"] },
  { kind: "gitlab-token", body: String.raw`gl(?:pat|dt|ptt|rt|soat|cbt|imt|agent|ft)-[\w-]{20,}`, literals: ["gl"] },
  { kind: "slack-token", body: String.raw`xox[abeprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{20,}`, literals: ["xox", "xapp-"] },
  { kind: "stripe-key", body: String.raw`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}`, literals: ["_live_", "_test_", "whsec_"] },
  { kind: "aws-access-key", body: String.raw`(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`, literals: ["AKIA", "ASIA", "ABIA", "ACCA"] },
  { kind: "huggingface-token", body: String.raw`hf_[A-Za-z0-9]{30,}`, literals: ["hf_"] },
  { kind: "npm-token", body: String.raw`npm_[A-Za-z0-9]{36}`, literals: ["npm_"] },
  { kind: "groq-key", body: String.raw`gsk_[A-Za-z0-9]{40,}`, literals: ["gsk_"] },
  { kind: "sendgrid-key", body: String.raw`SG\.[\w-]{16,}\.[\w-]{16,}`, literals: ["SG."] },
  { kind: "jwt", body: String.raw`eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*`, literals: ["eyJ"] },
  { kind: "digitalocean-token", body: String.raw`do[opr]_v1_[a-f0-9]{64}`, literals: ["_v1_"] },
  { kind: "vault-token", body: String.raw`hv[sbr]\.[\w-]{24,}`, literals: ["hvs.", "hvb.", "hvr."] },
  { kind: "age-secret-key", body: String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, literals: ["AGE-SECRET-KEY-1"] },
  { kind: "docker-hub-token", body: String.raw`dckr_(?:pat|oat)_[\w-]{20,}`, literals: ["dckr_"] },
  { kind: "pypi-token", body: String.raw`pypi-AgE[\w-]{50,}`, literals: ["pypi-AgE"] },
  { kind: "mailgun-key", body: String.raw`key-[0-9a-f]{32}`, literals: ["key-"] },
  { kind: "terraform-token", body: String.raw`[A-Za-z0-9]{14}\.atlasv1\.[\w-]{60,}`, literals: [".atlasv1."] },
  { kind: "azure-client-secret", body: String.raw`[\w~.-]{3}\dQ~[\w~.-]{31,34}`, literals: ["Q~"] },
  { kind: "telegram-bot-token", body: String.raw`\d{8,10}:AA[\w-]{33}`, literals: [":AA"] },
  { kind: "discord-token", body: String.raw`[MNO][\w-]{23,25}\.[\w-]{6}\.[\w-]{27,38}`, literals: undefined },
  { kind: "shopify-token", body: String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, literals: ["shp"] },
  { kind: "twilio-key", body: String.raw`SK[0-9a-fA-F]{32}`, literals: ["SK"] },
  { kind: "linear-key", body: String.raw`lin_(?:api|oauth)_[A-Za-z0-9]{40}`, literals: ["lin_"] },
  { kind: "newrelic-key", body: String.raw`NRAK-[A-Z0-9]{27}`, literals: ["NRAK-"] },
  { kind: "databricks-token", body: String.raw`dapi[a-f0-9]{32}(?:-\d)?`, literals: ["dapi"] },
  { kind: "postman-key", body: String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, literals: ["PMAK-"] },
  { kind: "grafana-token", body: String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}`, literals: ["glsa_", "glc_"] },
  { kind: "doppler-token", body: String.raw`dp\.(?:st|ct|sa|scim|audit|pt)\.[\w.-]{40,}`, literals: ["dp."] },
  { kind: "atlassian-token", body: String.raw`ATATT3[\w=-]{180,}|ATBB[A-Za-z0-9_=.-]{28,}`, literals: ["ATATT3", "ATBB"] },
  { kind: "anthropic-key", body: String.raw`sk-ant-[\w-]{20,}`, literals: ["sk-ant-"] },
  { kind: "tailscale-key", body: String.raw`tskey-(?:auth|api|client|scim|webhook)-[\w-]{16,}`, literals: ["tskey-"] },
  { kind: "alibaba-access-key", body: String.raw`LTAI[A-Za-z0-9]{12,20}`, literals: ["LTAI"] },
  { kind: "rubygems-key", body: String.raw`rubygems_[a-f0-9]{48}`, literals: ["rubygems_"] },
  { kind: "dynatrace-token", body: String.raw`dt0[a-z]\d{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}`, literals: ["dt0"] },
  { kind: "mapbox-token", body: String.raw`sk\.eyJ[\w-]{20,}\.[\w-]{20,}`, literals: ["sk.eyJ"] },
  { kind: "firebase-fcm-key", body: String.raw`AAAA[\w-]{7}:APA91b[\w-]{100,}`, literals: [":APA91b"] },
  // Base64 of a PEM private key ("-----BEGIN ..."), not of a certificate or a public key.
  {
    kind: "private-key",
    body: String.raw`LS0tLS1CRUdJTi(?!BDRVJUSUZJQ0FUR|BQVUJMSUMgS0VZ|BSU0EgUFVCTElD)[A-Za-z0-9+/]{40,}={0,2}`,
    literals: ["LS0tLS1CRUdJTi"],
  },
];

// No look-behind: Bun's regex JIT has none, and its interpreter is many times slower. The
// character before a token is checked in code instead; `/bot<token>` is how Telegram's API
// URLs carry a bot token. A format whose literal is absent from the text is not run at all.
const PATTERNS = FORMATS.map(({ kind, body, literals }) => ({ kind, literals, re: new RegExp(String.raw`(${body})(?![\w-])`, "gd") }));

// URLs that carry their secret: webhooks in the path, a Sentry DSN (its key lets anyone post
// events to the project) before the `@`, wherever the URL stands, not only under a `dsn` name.
const SECRET_URLS: { kind: string; literals: string[]; re: RegExp }[] = [
  { kind: "slack-webhook", literals: ["hooks.slack.com"], re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/([A-Za-z0-9/]+)/dg },
  { kind: "discord-webhook", literals: ["/api/webhooks/"], re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/([\w-]{40,})/dg },
  { kind: "sentry-dsn", literals: ["sentry.io/"], re: /https?:\/\/([0-9a-f]{32})@[\w.-]*\bsentry\.io\/\d+/dg },
];

const standsAlone = (text: string, start: number): boolean => start === 0 || !/[\w-]/.test(text[start - 1] ?? "") || text.endsWith("/bot", start);

export function tokenFormatFindings(text: string, has: Literals = literalsOf(text.toLowerCase())): SecretSpan[] {
  const spans: SecretSpan[] = [];
  // Literals are compared case-insensitively: at worst a pattern runs for nothing.
  const present = (literals: readonly string[]) => literals.some((literal) => has(literal.toLowerCase()));
  for (const { kind, literals, re } of PATTERNS) {
    if (literals && !present(literals)) continue;
    spans.push(...groupSpans(text, re, kind).filter((span) => standsAlone(text, span.start)));
  }
  for (const { kind, literals, re } of SECRET_URLS) if (present(literals)) spans.push(...groupSpans(text, re, kind));
  return spans;
}
