import { isSecretName } from "./assignments.js";
import { isVariableName } from "./code-context.js";
import { type Literals, literalsOf } from "./literals.js";
import { isReference } from "./references.js";
import { groupSpans, MARKER_PREFIX, type SecretSpan } from "./spans.js";

/**
 * Credentials that sit where only their surroundings say what they are: URLs, HTTP headers
 * and cookies, command lines, .netrc and .pgpass lines, query strings.
 */
const notReference = (value: string) => !isReference(value) && !/^[:@]?\$/.test(value);

/**
 * A header's value, unless it is a name (`{ Authorization: authHeader }`, `apiKey: getKey()`):
 * header credentials are machine-made, never words. Only a value right after the separator
 * can be code; after a quote or a scheme (`Bearer x`) it is text.
 */
const headerValue = (value: string, match: RegExpExecArray) => {
  if (!notReference(value)) return false;
  const valueStart = match.indices?.[1]?.[0] ?? match.index + match[0].lastIndexOf(value);
  if (!/[:=]\s*$/.test(match.input.slice(match.index, valueStart))) return true;
  return !isVariableName(value) && match.input[valueStart + value.length] !== "(";
};

/** `needs`: lower-case text the rule cannot match without; a rule whose text is absent is not run. */
const RULES: { kind: string; needs: string[]; re: RegExp; accept?: (value: string, match: RegExpExecArray) => boolean }[] = [
  // scheme://user:password@host keeps scheme, user and host; the password runs to the last `@` before the host.
  // A user already redacted (a Sentry DSN's key) is no `user:password`: the colon is the marker's.
  {
    kind: "url-password",
    needs: ["://"],
    re: /\b[a-z][a-z\d+.-]{0,20}:\/\/[^\s:@/?#'"`]*:([^\s/?#'"`]+?)@(?=[\w.[\]-]+(?:[:/?#'"`\s]|$))/dgi,
    accept: (value, match) => notReference(value) && !match[0].includes(MARKER_PREFIX),
  },
  // Authorization headers of any scheme, and `Bearer xyz` anywhere (a digit required: prose survives).
  {
    kind: "auth-header",
    needs: ["authorization"],
    re: /\b(?:proxy-)?authorization["']?\s*[:=]\s*[["'(]?(?:(?:bearer|basic|token|digest|apikey|sso-key)\s+)?([\w.~+/=:-]{8,})/dgi,
    accept: headerValue,
  },
  { kind: "bearer-token", needs: ["bearer"], re: /\bbearer\s+((?=[\w.~+/-]*\d)[\w.~+/-]{8,}=*)/dgi, accept: notReference },
  // Header-style credentials: X-Api-Key: ..., X-Auth-Token: ..., PRIVATE-TOKEN: ...
  {
    kind: "auth-header",
    needs: ["key", "token", "secret", "auth"],
    re: /\b(?:x-[\w-]*(?:key|token|secret|auth)|private-token|api-key|apikey)["']?\s*:\s*["']?([\w.~+/=-]{8,})/dgi,
    accept: headerValue,
  },
  // Cookie headers (not `document.cookie = ...`): Cookie: a=b; c=d and Set-Cookie: name=value.
  { kind: "cookie", needs: ["cookie"], re: /(?:^|["'\s])(?:set-)?cookie["']?\s*:\s*["']?([^\r\n"']*=[^\r\n"']+)/dgim },
  // Query parameters named as credentials: ?token=..., &sig=..., &client_secret=...
  {
    kind: "query-secret",
    needs: ["="],
    re: /[?&;]([\w.-]+)=([^&\s#'"`<>]{4,})/dg,
  },
  // .netrc: machine host login user password secret, on one line or one entry per line.
  { kind: "netrc-password", needs: ["password"], re: /\b(?:machine|default)\b[^\n]*?\bpassword\s+(\S+)/dg, accept: notReference },
  { kind: "netrc-password", needs: ["password"], re: /^\s*password\s+(\S+)\s*$/dgm, accept: notReference },
  // SQL: CREATE USER ... IDENTIFIED BY 'pw', PASSWORD 'pw', SET PASSWORD FOR u = 'pw', OPTIONS (password 'pw').
  {
    kind: "sql-password",
    needs: ["identified", "password"],
    re: /\b(?:identified\s+(?:with\s+\w+\s+)?by|password(?:\s+for\s+\S+)?\s*=?)\s*'([^'\n]{4,})'/dgi,
    accept: notReference,
  },
  // XML elements and attributes named as credentials: <password>x</password>, key="ApiKey" value="x".
  { kind: "xml-secret", needs: ["</"], re: /<([\w:.-]*(?:password|passwd|secret|token|apikey|api-key|passphrase))>([^<\n]{4,})<\/\1>/dgi },
  { kind: "xml-secret", needs: ['value="'], re: /\bkey="([^"]+)"\s+value="([^"]{4,})"/dgi },
  // Kubernetes env lists: - name: DB_PASSWORD / value: "x" (the value on the next line).
  { kind: "env-secret", needs: ["value:"], re: /\bname:\s*["']?([\w.-]+)["']?\s*\n\s*value:\s*(["']?)([^\s"']+)\2/dg },
  // jwt.sign(payload, 'secret') and Fernet(b"key"): the literal is the key.
  { kind: "signing-key", needs: ["jwt."], re: /\bjwt\.(?:sign|verify|encode|decode)\((?:[^()]|\([^()]*\))*?,\s*b?(["'])([^"'\n]{8,})\1/dg },
  { kind: "fernet-key", needs: ["fernet("], re: /\bFernet\(\s*b?(["'])([\w-]{43}=)\1/dg },
  // A Twilio auth token is 32 bare hex: quoted on a line that names Twilio or its account SID (`Client(account_sid, "...")`).
  { kind: "twilio-auth-token", needs: ["twilio", "sid"], re: /^(?=[^\n]*(?:twilio|account_?sid|\bAC[0-9a-f]{32}\b))[^\n]*?["']([0-9a-f]{32})["']/dgim },
  // kaggle.json: {"username":"...","key":"<32 hex>"}.
  { kind: "kaggle-key", needs: ["username"], re: /["']username["']\s*:\s*["'][^"'\n]*["']\s*,\s*["']key["']\s*:\s*["']([0-9a-f]{32})["']/dg },
  // .pgpass: host:port:database:user:password
  { kind: "pgpass-password", needs: [":"], re: /^[\w.*-]+:(?:\d+|\*):[\w*-]+:[\w.*@-]+:(\S+)$/dgm, accept: notReference },
];

/** Command-line flags that take a credential: `--password X`, `--token=X`, `-p X` of tools known to mean it. */
// The character before the dash is checked in code: look-behinds are slow in Bun.
const FLAG =
  /--?((?:[\w-]*(?:password|passwd|passphrase|secret|token|api-?key|apikey|auth-key|access-key|secret-key|private-key|client-secret|pass))(?:-stdin)?)(?:=|\s+)(["']?)([^\s"']+)\2/dgi;
const TOOL_FLAGS: { tool: RegExp; flag: RegExp }[] = [
  // mysql -pPW; sshpass -p PW; docker login -p PW; redis-cli -a PW; ldapsearch -w PW; 7z -pPW; zip -P PW; curl -u user:PW
  { tool: /\b(?:mysql|mysqldump|mariadb|mysqladmin)\b/, flag: /(?<=\s)-p(?!\s)(["']?)([^\s"']+)\1/dg },
  {
    tool: /\bsshpass\b|\b(?:docker|podman|buildah|skopeo|oras|nerdctl)\s+login\b|\bhelm\s+registry\s+login\b/,
    flag: /(?<=\s)-p\s+(["']?)([^\s"'-][^\s"']*)\1/dg,
  },
  { tool: /\bredis-cli\b/, flag: /(?<=\s)-a\s+(["']?)([^\s"'-][^\s"']*)\1/dg },
  { tool: /\bldap(?:search|modify|add|delete|passwd|whoami)\b/, flag: /(?<=\s)-w\s+(["']?)([^\s"'-][^\s"']*)\1/dg },
  { tool: /\b7z[a-z]?\b/, flag: /(?<=\s)-p(["']?)([^\s"']+)\1/dg },
  { tool: /\b(?:zip|unzip)\b/, flag: /(?<=\s)-P\s+(["']?)([^\s"']+)\1/dg },
  { tool: /\b(?:curl|wget|http|httpie)\b/, flag: /(?<=\s)(?:-u|--user)[\s=]+(["']?)[^\s:"']+:([^\s"']+)\1/dg },
  // htpasswd -b file user PW; mc alias set NAME URL ACCESS SECRET
  { tool: /\bhtpasswd\b/, flag: /\bhtpasswd\s+(?:-\w+\s+)*?-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+(["']?)([^\s"']+)\1/dg },
  { tool: /\bmc\b/, flag: /\bmc\s+(?:alias\s+set|config\s+host\s+add)\s+\S+\s+\S+\s+\S+\s+(["']?)([^\s"']+)\1/dg },
];
/** The lines a tool flag above can be on: they name one of the tools. */
const TOOL_LINE = /mysql|mariadb|sshpass|\slogin|redis-cli|ldap|7z|zip\s|curl\s|wget\s|http\s|htpasswd|mc\s/gi;
// `<tool> login <token>`, `--with-token <token>` piped or positional, `auth <token>`.
const LOGIN_TOKEN =
  /\b(?:login|auth(?:enticate)?|set-token|token\s+add|config\s+set\s+\S*(?:token|auth|password)\S*)\s+(?:-\S+\s+)*(?:[\w.@-]+\s+)?(["']?)((?=[\w.~+/=:-]*\d)[\w.~+/=:-]{20,})\1/dgi;

export function contextFindings(text: string, has: Literals = literalsOf(text.toLowerCase())): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const { kind, needs, re, accept } of RULES) {
    if (!needs.some(has)) continue;
    if (kind === "query-secret" || kind === "xml-secret") {
      // The name decides: group 1, the value group 2.
      spans.push(...groupSpans(text, re, kind, 2, (value, match) => isSecretName(match[1] ?? "") && notReference(value)));
      continue;
    }
    if (kind === "env-secret") {
      spans.push(...groupSpans(text, re, kind, 3, (value, match) => isSecretName(match[1] ?? "") && notReference(value)));
      continue;
    }
    if (kind === "signing-key" || kind === "fernet-key") {
      spans.push(...groupSpans(text, re, kind, 2, notReference));
      continue;
    }
    spans.push(...groupSpans(text, re, kind, 1, accept));
  }
  spans.push(...groupSpans(text, FLAG, "cli-secret", 3, (value, match) => notReference(value) && !/[\w-]/.test(text[match.index - 1] ?? "")));
  // One pass of TOOL_LINE is the gate: lines without a tool run none of the flag patterns.
  const toolLines = linesMatching(text, TOOL_LINE);
  for (const line of toolLines) {
    for (const { tool, flag } of TOOL_FLAGS) {
      if (!tool.test(line.text)) continue;
      for (const span of groupSpans(line.text, flag, "cli-secret", 2, notReference))
        spans.push({ ...span, start: span.start + line.start, end: span.end + line.start });
    }
  }
  if (["login", "auth", "token", "config"].some(has)) spans.push(...groupSpans(text, LOGIN_TOKEN, "cli-secret", 2, notReference));
  if (["cat ", "type ", "more ", "less ", "head ", "tail "].some(has)) spans.push(...keyFileContents(text));
  if (/\|\s*:?-{3}/.test(text)) spans.push(...markdownTableSecrets(text));
  return spans;
}

/** `cat` of a file named as a key or secret, then the file's content alone on the next lines. */
function keyFileContents(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const re =
    /^\$?\s*(?:cat|type|more|less|head|tail)\s+\S*(?:key|secret|token|passw|credential|\.pem|id_rsa|id_ed25519)\S*[^\n]*\n((?:[A-Za-z0-9+/=_.-]{16,}\n?)+)/dgim;
  for (const span of groupSpans(text, re, "key-file", 1)) spans.push({ ...span, end: text[span.end - 1] === "\n" ? span.end - 1 : span.end });
  return spans;
}

/** A Markdown table's cells under a column named as credentials (Password, Token, API key...). */
function markdownTableSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const all = lines(text);
  for (let index = 0; index + 2 < all.length; index += 1) {
    const header = all[index]?.text ?? "";
    if (!/^\s*\|.*\|\s*$/.test(header) || !/^\s*\|[\s:|-]+\|\s*$/.test(all[index + 1]?.text ?? "")) continue;
    const columns = header.split("|").map((cell) => cell.trim());
    const secret = columns.flatMap((name, column) => (name !== "" && isSecretName(name.replace(/\s+/g, "_")) ? [column] : []));
    if (secret.length === 0) continue;
    for (let row = index + 2; row < all.length && /^\s*\|/.test(all[row]?.text ?? ""); row += 1) {
      const line = all[row] as { text: string; start: number };
      let offset = 0;
      line.text.split("|").forEach((cell, column) => {
        const value = cell.trim();
        if (secret.includes(column) && value.length >= 4 && notReference(value.replace(/^`|`$/g, "")) && !/^[-–—]+$/.test(value)) {
          const start = line.start + offset + cell.indexOf(value);
          spans.push({ start, end: start + value.length, kind: "table-secret" });
        }
        offset += cell.length + 1;
      });
    }
  }
  return spans;
}

/** The lines holding a match of `re` (global), each once, in order. */
function linesMatching(text: string, re: RegExp): { text: string; start: number }[] {
  const result: { text: string; start: number }[] = [];
  re.lastIndex = 0;
  for (let found = re.exec(text); found !== null; found = re.exec(text)) {
    const start = text.lastIndexOf("\n", found.index) + 1;
    const newline = text.indexOf("\n", found.index);
    const end = newline < 0 ? text.length : newline;
    result.push({ text: text.slice(start, end), start });
    re.lastIndex = end + 1;
  }
  return result;
}

function lines(text: string): { text: string; start: number }[] {
  const result: { text: string; start: number }[] = [];
  let start = 0;
  for (const line of text.split("\n")) {
    result.push({ text: line, start });
    start += line.length + 1;
  }
  return result;
}
