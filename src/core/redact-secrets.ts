/**
 * Replaces secrets in text bound for the auxiliary model with `[REDACTED:<kind>]`. Pure and
 * deterministic. Idempotent: no rule matches inside a marker, and a value that already holds
 * one is left alone. It errs towards keeping code readable: an assignment's value is redacted
 * only when it looks like data, not like an expression, a type or a count.
 */

const MARKER = "[REDACTED:";
const marker = (kind: string): string => `${MARKER}${kind}]`;

/** Group 1 is kept, group 2 is the secret; anything after it is only looked at. */
interface Rule {
  kind: string;
  re: RegExp;
}

/** A token with a known prefix, not glued to a longer word (`task-...` never yields `sk-...`). */
const token = (kind: string, body: string): Rule => ({ kind, re: new RegExp(String.raw`()(?<![\w-])(${body})(?![\w-])`, "g") });

// Order matters: specific formats first, so `Bearer sk-...` is an openai-key and
// `AWS_SECRET_ACCESS_KEY=...` an aws-secret-key rather than the generic kinds.
const RULES: Rule[] = [
  {
    // The whole block; a block cut off before its END line loses its base64 lines.
    kind: "private-key",
    re: /()(-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:(?:\r?\n|\\n)[A-Za-z0-9+/=]{16,})*))/g,
  },
  token("anthropic-key", String.raw`sk-ant-[\w-]{20,}`),
  token("deepseek-key", String.raw`sk-[0-9a-f]{32}`),
  // A digit is required so that a kebab-case word starting with `sk-` survives.
  token("openai-key", String.raw`sk-(?=[\w-]*\d)[\w-]{20,}`),
  token("google-api-key", String.raw`AIza[\w-]{35}`),
  token("google-oauth-secret", String.raw`GOCSPX-[\w-]{20,}`),
  token("github-token", String.raw`gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,}`),
  token("gitlab-token", String.raw`glpat-[\w-]{20,}`),
  token("slack-token", String.raw`xox[abeprs]-[A-Za-z0-9-]{10,}`),
  token("stripe-key", String.raw`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}`),
  token("aws-access-key", String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}`),
  token("huggingface-token", String.raw`hf_[A-Za-z0-9]{30,}`),
  token("npm-token", String.raw`npm_[A-Za-z0-9]{36}`),
  token("groq-key", String.raw`gsk_[A-Za-z0-9]{40,}`),
  token("sendgrid-key", String.raw`SG\.[\w-]{16,}\.[\w-]{16,}`),
  // Header and payload both start with `{"`, base64url `eyJ`.
  token("jwt", String.raw`eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*`),
  { kind: "slack-webhook", re: /(https:\/\/hooks\.slack\.com\/services\/)([A-Za-z0-9]+\/[A-Za-z0-9]+\/[A-Za-z0-9]+)/g },
  // AWS secret keys have no prefix; only their label tells them from any 40-character base64.
  { kind: "aws-secret-key", re: /((?:aws_?)?secret_?access_?key["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi },
  { kind: "basic-auth", re: /(\bauthorization["']?[ \t]*[:=][ \t]*["']?basic[ \t]+)([A-Za-z0-9+/]{8,}=*)/gi },
  // Any scheme (Bearer, token, ...) in an Authorization header. The lookahead keeps a second
  // pass from taking the scheme word for the credentials once they are a marker.
  {
    kind: "bearer-token",
    re: /(\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:[A-Za-z]+[ \t]+)?)([\w.~+/-]{8,}=*)(?![\w.~+/=-]|[ \t]+\[REDACTED:)/gi,
  },
  // `Bearer xyz` anywhere; a digit is required so prose ("Bearer authentication") survives.
  { kind: "bearer-token", re: /(\bbearer[ \t]+)((?=[\w.~+/-]*\d)[\w.~+/-]{8,}=*)(?![\w.~+/=-])/gi },
  // scheme://user:password@host keeps scheme, user and host.
  { kind: "url-password", re: /(\b[a-z][a-z\d+.-]{0,20}:\/\/[^\s:@/?#'"]*:)([^\s@/?#'"]+)(?=@)/gi },
];

/** Shell and template references (`$VAR`, `${VAR}`, `$(cmd)`) and already-redacted values. */
function isReference(value: string): boolean {
  return value.includes(MARKER) || /^\$(?:\{|\(|[A-Za-z_]\w*$)/.test(value);
}

// The last word of a name decides: `GITHUB_TOKEN` is a secret, `TOKEN_LIMIT`, `max_tokens` and
// `password_hash` are not. `key` counts only with a qualifier (`API_KEY`, not `sort_key`).
const SECRET_WORDS = new Set([
  "password", "passwd", "pwd", "pass", "passphrase", "secret", "token", "auth",
  "credential", "credentials", "creds",
]);
const KEY_QUALIFIERS = new Set(["api", "access", "secret", "private", "encryption", "signing", "master", "account", "auth", "session", "client"]);
/** Values that are types, flags or placeholders rather than secrets (`password: string`). */
const NOT_SECRETS = new Set([
  "true", "false", "null", "none", "nil", "undefined", "yes", "no", "on", "off", "required", "optional",
  "str", "string", "int", "number", "bool", "boolean", "any", "unknown", "object", "bytes", "secretstr", "include", "omit",
]);

function isSecretName(name: string): boolean {
  const words = name
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => part.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g) ?? [])
    .map((word) => word.toLowerCase());
  const last = words.at(-1) ?? "";
  // A bare `PWD` is the shell's working directory.
  if (SECRET_WORDS.has(last)) return !(last === "pwd" && words.length === 1);
  // Run-together names (`PGPASSWORD`, `authtoken`); not `pass`, `pwd`, `auth` (`bypass`, `OLDPWD`, `oauth`).
  if (/(?:password|passwd|secret|token|apikey|accesskey|secretkey|privatekey)$/.test(last)) return true;
  return last === "key" && KEY_QUALIFIERS.has(words.at(-2) ?? "");
}

/**
 * `strong`: the value is quoted, the name is an UPPER_CASE env name, or it is a tight `a=b`
 * outside a call; there anything of 4+ characters that is not a number counts. Elsewhere
 * (`password: x` in YAML or a type annotation, `token = x` in code) the value needs a letter
 * and a digit, so identifiers survive and generated secrets do not.
 */
function looksSecret(value: string, options: { quoted: boolean; strong: boolean; next: string }): boolean {
  const { quoted, strong, next } = options;
  if (value.length < 4 || isReference(value) || /^[-+]?\d+(?:\.\d+)?$/.test(value) || NOT_SECRETS.has(value.toLowerCase())) return false;
  // A call, an index or a dotted path is code, not data.
  if (!quoted && (/^[([]/.test(next) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value))) return false;
  return strong || (value.length >= 6 && /\d/.test(value) && /[A-Za-z]/.test(value));
}

// NAME=value, export NAME="value", NAME: value, "name": "value", name = 'value'. A quoted
// value may not start with a space, so the closing quote of one string is not read as the
// opening quote of a value (`print("Token: " + t)`).
const ASSIGNMENT =
  /(?<!\w)(["']?)([A-Za-z_][\w.-]{0,63})(["']?[ \t]*)([:=])(?![=:])([ \t]*)("(?!\s)(?:[^"\\\n]|\\.)*"|'(?!\s)(?:[^'\\\n]|\\.)*'|[^\s"'`,;&<>{}()[\]]+)/g;

function redactAssignments(text: string): string {
  let result = "";
  let copied = 0;
  ASSIGNMENT.lastIndex = 0;
  for (let found = ASSIGNMENT.exec(text); found !== null; found = ASSIGNMENT.exec(text)) {
    const [match, , name = "", middle, separator, after, value = ""] = found;
    const head = match.slice(0, match.length - value.length);
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : "";
    const inner = quote ? value.slice(1, -1) : value;
    const next = text[found.index + match.length] ?? "";
    const tight = separator === "=" && middle === "" && after === "" && !/^[,)]/.test(next);
    const strong = quote !== "" || /^[A-Z][A-Z0-9_.-]*$/.test(name) || tight;
    if (!isSecretName(name) || !looksSecret(inner, { quoted: quote !== "", strong, next })) {
      // Scan the value again: it may start the next assignment (`logs: db_password = "..."`).
      ASSIGNMENT.lastIndex = found.index + head.length;
      continue;
    }
    result += `${text.slice(copied, found.index)}${head}${quote}${marker("env-secret")}${quote}`;
    copied = found.index + match.length;
  }
  return result + text.slice(copied);
}

/** `text` with every secret it recognises replaced by `[REDACTED:<kind>]`. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const { kind, re } of RULES) {
    result = result.replace(re, (match: string, keep: string, secret: string) => (isReference(secret) ? match : keep + marker(kind)));
  }
  return redactAssignments(result);
}
