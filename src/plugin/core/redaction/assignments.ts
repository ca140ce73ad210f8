import { isVariableInCode } from "./code-context.js";
import { isIdentifier, isReference } from "./references.js";
import type { SecretSpan } from "./spans.js";

// The last word of a name decides: `GITHUB_TOKEN` is a secret, `TOKEN_LIMIT`, `max_tokens` and
// `password_hash` are not. `key` counts only with a qualifier (`API_KEY`, not `sort_key`).
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pwd",
  "pass",
  "passphrase",
  "secret",
  "token",
  "auth",
  "credential",
  "credentials",
  "creds",
  "sig",
  "signature",
  "cookie",
  "sessionid",
  "apikey",
  "appkey",
  "appsecret",
  "dsn",
  "salt",
  "pin",
  "psk",
]);
const SPECIAL_TOKENS = new Set(["bos", "eos", "unk", "sep", "pad", "cls", "mask", "special", "additional", "start", "end", "image", "audio"]);
/** A first word that makes the name a setting about a secret, not the secret (`existingSecret`, `min_password_length`). */
const SETTING_WORDS = new Set([
  "existing",
  "use",
  "create",
  "enable",
  "enabled",
  "has",
  "is",
  "show",
  "require",
  "required",
  "min",
  "max",
  "num",
  "allow",
  "generate",
  "reset",
  "validate",
  "verify",
  "check",
  "hash",
  "hashed",
  "masked",
  "rotate",
  "no",
  "skip",
]);
const KEY_QUALIFIERS = new Set([
  "api",
  "access",
  "secret",
  "private",
  "encryption",
  "signing",
  "master",
  "account",
  "auth",
  "session",
  "client",
  "app",
  "fernet",
  "license",
  "consumer",
  "shared",
  "hmac",
  "jwt",
  "crypto",
  "cipher",
  "subscription",
  "webhook",
  "admin",
  "service",
  "storage",
  // Providers whose API key is called just that: `KAGGLE_KEY`.
  "kaggle",
]);
/** Names whose last words alone say nothing, but which always hold a credential. */
const SECRET_NAMES =
  /^(?:client[-_]key[-_]data|client[-_]certificate[-_]data|appid|app[-_]id[-_]secret|x[-_]api[-_]key|x[-_]auth[-_]token|sessid|phpsessid|jsessionid|connect\.sid|_session|session)$/i;

function nameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+/)
    .flatMap((part) => part.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [])
    .map((word) => word.toLowerCase());
}

export function isSecretName(name: string): boolean {
  if (SECRET_NAMES.test(name)) return true;
  const words = nameWords(name);
  const last = words.at(-1) ?? "";
  if (words.length > 1 && SETTING_WORDS.has(words[0] ?? "")) return false;
  // A tokenizer's special tokens (`eos_token`, `pad_token`) are vocabulary, not credentials.
  if (last === "token" && SPECIAL_TOKENS.has(words.at(-2) ?? "")) return false;
  // Alone, `PWD` is the shell's working directory, and `pin`, `salt` are too common in code.
  if (SECRET_WORDS.has(last)) return !(words.length === 1 && ["pwd", "pin", "salt"].includes(last));
  // Run-together names (`PGPASSWORD`, `authtoken`); not `pass`, `pwd`, `auth` (`bypass`, `OLDPWD`, `oauth`).
  if (/(?:password|passwd|secret|token|apikey|accesskey|secretkey|privatekey|masterkey)$/.test(last)) return true;
  return last === "key" && KEY_QUALIFIERS.has(words.at(-2) ?? "");
}

// Access levels are settings, not secrets: GitHub Actions' `id-token: write` is a permission.
const NOT_SECRETS = new Set([
  "required",
  "optional",
  "include",
  "omit",
  "same-origin",
  "bearer",
  "basic",
  "yes",
  "no",
  "on",
  "off",
  "read",
  "write",
  "read-all",
  "write-all",
]);

/**
 * Whether an assignment's value is data. `strong` (quoted, an UPPER_CASE env name, a tight
 * `a=b`, or a YAML line's whole value) accepts anything of 4+ characters that is not a
 * number or a reference; in code (`token = x`) an unquoted value must hold a letter and a
 * digit, so identifiers and expressions survive.
 */
function looksSecret(value: string, options: { quoted: boolean; strong: boolean; next: string }): boolean {
  const { quoted, strong, next } = options;
  if (value.length < 4 || /^[-+]?\d+(?:\.\d+)?$/.test(value) || NOT_SECRETS.has(value.toLowerCase())) return false;
  if (isReference(value, { strong: strong && !quoted })) return false;
  if (quoted) return true;
  if (/^[([]/.test(next)) return false;
  if (strong) return true;
  return !isIdentifier(value) && value.length >= 6 && /\d/.test(value) && /[A-Za-z]/.test(value);
}

// NAME=value, export NAME="value", NAME: value, "name": "value", name = 'value', name => 'v',
// os.environ["NAME"] = "value".
// A quoted value may not start with a space, so the closing quote of one string is not read
// as the opening quote of a value (`print("Token: " + t)`). An unquoted value runs to the end
// of the token: `&`, `#` and `;` inside it stay part of it unless a space comes first.
const ASSIGNMENT =
  /(["']?)([A-Za-z_][\w.-]{0,63})(["']?\]?[ \t]*)(:=|=>|[:=])(?![=:])([ \t]*)("(?!\s)(?:[^"\\\n]|\\.)*"|'(?!\s)(?:[^'\\\n]|\\.)*'|[^\s"'`,<>{}()[\]]+)/g;

/** `name: value` alone on its line (after indentation or a list dash): a YAML mapping, not code. */
function isWholeLineValue(line: string, start: number, end: number): boolean {
  return /^\s*(?:-\s+)?$/.test(line.slice(0, start)) && /^\s*(?:#.*)?$/.test(line.slice(end));
}

/** Every secret name holds one of these: lines without any are not scanned. */
const NAME_HINT = /pass|pwd|secret|token|auth|cred|key|sig|cookie|sess|sid|dsn|salt|pin|psk|appid/i;

export function assignmentFindings(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  let lineStart = 0;
  for (const line of text.split("\n")) {
    if (NAME_HINT.test(line))
      for (const span of lineAssignments(line, { text, lineStart })) spans.push({ ...span, start: span.start + lineStart, end: span.end + lineStart });
    lineStart += line.length + 1;
  }
  return spans;
}

/** `whole`: the text the line is part of, for the lines around it. */
function lineAssignments(text: string, whole: { text: string; lineStart: number }): SecretSpan[] {
  const spans: SecretSpan[] = [];
  ASSIGNMENT.lastIndex = 0;
  for (let found = ASSIGNMENT.exec(text); found !== null; found = ASSIGNMENT.exec(text)) {
    const [match, openQuote = "", name = "", middle, separator, after, rawValue = ""] = found;
    // Checked here, not by a look-behind (slow in Bun): a name starts a word (after a sigil too:
    // PHP's and Perl's `$token = "..."`), and is not `${NAME:?...}`.
    const before = text[found.index - 1] ?? "";
    if (/[\w-]/.test(before) || (before === "{" && text[found.index - 2] === "$")) {
      ASSIGNMENT.lastIndex = found.index + openQuote.length + name.length;
      continue;
    }
    const head = match.length - rawValue.length;
    const quote = rawValue[0] === '"' || rawValue[0] === "'" ? rawValue[0] : "";
    // An unquoted value ends before a statement's `;` or a trailing `,` when code follows.
    const value = quote ? rawValue : rawValue.replace(/[;,]+$/, "");
    const inner = quote ? value.slice(1, -1) : value;
    const next = text[found.index + head + value.length] ?? "";
    const tight = separator === "=" && middle === "" && after === "" && !/^[,)]/.test(next);
    const yaml = separator === ":" && quote === "" && isWholeLineValue(text, found.index, found.index + head + value.length);
    const strong = quote !== "" || /^[A-Z][A-Z0-9_.-]*$/.test(name) || tight || yaml;
    const at = whole.lineStart + found.index + head;
    // A member of a code literal whose value is a name (`{ DB_PASSWORD: dbPassword }`) is a
    // variable, even under a strong name; a shell's tight `X=word` is data.
    const variable = () =>
      quote === "" && !tight && isVariableInCode({ text: whole.text, nameStart: whole.lineStart + found.index, valueStart: at, valueEnd: at + value.length });
    if (!isSecretName(name) || !looksSecret(inner, { quoted: quote !== "", strong, next }) || variable()) {
      // Scan the value again: it may start the next assignment (`logs: db_password = "..."`).
      ASSIGNMENT.lastIndex = found.index + head;
      continue;
    }
    const start = found.index + head + (quote ? 1 : 0);
    spans.push({ start, end: start + inner.length, kind: "assigned-secret" });
  }
  return spans;
}
