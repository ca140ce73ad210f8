import { groupSpans, type SecretSpan } from "./spans.js";

/**
 * Credentials recognisable by their own shape (a provider's prefix, length and alphabet) that
 * secretlint's recommended rules do not know, or know only in an older format. A token must
 * not be glued to a longer word: `task-...` never yields `sk-...`.
 */
const FORMATS: { kind: string; body: string }[] = [
  { kind: "openai-key", body: String.raw`sk-(?:proj-|svcacct-|admin-)?(?=[\w-]*\d)[\w-]{20,}` },
  { kind: "deepseek-key", body: String.raw`sk-[0-9a-f]{32}` },
  { kind: "google-api-key", body: String.raw`AIza[\w-]{35}` },
  { kind: "google-oauth-secret", body: String.raw`GOCSPX-[\w-]{20,}` },
  { kind: "google-oauth-token", body: String.raw`ya29\.[\w-]{20,}` },
  { kind: "github-token", body: String.raw`gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,}` },
  { kind: "gitlab-token", body: String.raw`gl(?:pat|dt|ptt|rt|soat|cbt|imt|agent|ft)-[\w-]{20,}` },
  { kind: "slack-token", body: String.raw`xox[abeprs]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{20,}` },
  { kind: "stripe-key", body: String.raw`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}` },
  { kind: "aws-access-key", body: String.raw`(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}` },
  { kind: "huggingface-token", body: String.raw`hf_[A-Za-z0-9]{30,}` },
  { kind: "npm-token", body: String.raw`npm_[A-Za-z0-9]{36}` },
  { kind: "groq-key", body: String.raw`gsk_[A-Za-z0-9]{40,}` },
  { kind: "sendgrid-key", body: String.raw`SG\.[\w-]{16,}\.[\w-]{16,}` },
  { kind: "jwt", body: String.raw`eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*` },
  { kind: "digitalocean-token", body: String.raw`do[opr]_v1_[a-f0-9]{64}` },
  { kind: "vault-token", body: String.raw`hv[sbr]\.[\w-]{24,}` },
  { kind: "age-secret-key", body: String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}` },
  { kind: "docker-hub-token", body: String.raw`dckr_(?:pat|oat)_[\w-]{20,}` },
  { kind: "pypi-token", body: String.raw`pypi-AgE[\w-]{50,}` },
  { kind: "mailgun-key", body: String.raw`key-[0-9a-f]{32}` },
  { kind: "terraform-token", body: String.raw`[A-Za-z0-9]{14}\.atlasv1\.[\w-]{60,}` },
  { kind: "azure-client-secret", body: String.raw`[\w~.-]{3}\dQ~[\w~.-]{31,34}` },
  { kind: "telegram-bot-token", body: String.raw`\d{8,10}:AA[\w-]{33}` },
  { kind: "discord-token", body: String.raw`[MNO][\w-]{23,25}\.[\w-]{6}\.[\w-]{27,38}` },
  { kind: "shopify-token", body: String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}` },
  { kind: "twilio-key", body: String.raw`SK[0-9a-fA-F]{32}` },
  { kind: "linear-key", body: String.raw`lin_(?:api|oauth)_[A-Za-z0-9]{40}` },
  { kind: "newrelic-key", body: String.raw`NRAK-[A-Z0-9]{27}` },
  { kind: "databricks-token", body: String.raw`dapi[a-f0-9]{32}(?:-\d)?` },
  { kind: "postman-key", body: String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}` },
  { kind: "grafana-token", body: String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}` },
  { kind: "doppler-token", body: String.raw`dp\.(?:st|ct|sa|scim|audit|pt)\.[\w.-]{40,}` },
  { kind: "atlassian-token", body: String.raw`ATATT3[\w=-]{180,}|ATBB[A-Za-z0-9_=.-]{28,}` },
  { kind: "anthropic-key", body: String.raw`sk-ant-[\w-]{20,}` },
  { kind: "tailscale-key", body: String.raw`tskey-(?:auth|api|client|scim|webhook)-[\w-]{16,}` },
  { kind: "alibaba-access-key", body: String.raw`LTAI[A-Za-z0-9]{12,20}` },
  { kind: "rubygems-key", body: String.raw`rubygems_[a-f0-9]{48}` },
  { kind: "dynatrace-token", body: String.raw`dt0[a-z]\d{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}` },
  { kind: "mapbox-token", body: String.raw`sk\.eyJ[\w-]{20,}\.[\w-]{20,}` },
  { kind: "firebase-fcm-key", body: String.raw`AAAA[\w-]{7}:APA91b[\w-]{100,}` },
  // Base64 of a PEM private key ("-----BEGIN ..."), not of a certificate or a public key.
  { kind: "private-key", body: String.raw`LS0tLS1CRUdJTi(?!BDRVJUSUZJQ0FUR|BQVUJMSUMgS0VZ|BSU0EgUFVCTElD)[A-Za-z0-9+/]{40,}={0,2}` },
];

// `/bot<token>` is how Telegram's API URLs carry the bot token.
const PATTERNS = FORMATS.map(({ kind, body }) => ({ kind, re: new RegExp(String.raw`(?:(?<=/bot)|(?<![\w-]))(${body})(?![\w-])`, "gd") }));

// Webhook URLs carry their secret in the path.
const WEBHOOKS: { kind: string; re: RegExp }[] = [
  { kind: "slack-webhook", re: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/([A-Za-z0-9/]+)/dg },
  { kind: "discord-webhook", re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/([\w-]{40,})/dg },
];

export function tokenFormatFindings(text: string): SecretSpan[] {
  return [...PATTERNS, ...WEBHOOKS].flatMap(({ kind, re }) => groupSpans(text, re, kind));
}
