import { isFiller } from "./fillers.js";
import { MARKER_PREFIX } from "./spans.js";

/** Placeholders of the common template syntaxes. */
const PLACEHOLDER =
  /\$\{\{[^}]*\}\}|\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_]\w*|%\([\w.]+\)[sdr]|%[sdr]|\{\{[^}]*\}\}|\{[\w.[\]'"()|: -]*\}|<[\w .:/|-]+>|#\{[^}]*\}|@[A-Z_][A-Z0-9_.]*@|@[a-z][A-Za-z.]*@|__[A-Z_][A-Z0-9_]*__/g;
const WHOLE_PLACEHOLDER = new RegExp(`^(?:${PLACEHOLDER.source})$`);

/**
 * Values that name or compute a secret rather than hold one: template placeholders of every
 * common syntax (also inside a template string: `{cfg.user}:{cfg.password}@`), fillers,
 * identifiers, type names, calls, member expressions, and markers. `strong`: the value sits
 * where data is expected (an env file's NAME=value); a dotted value there is code only when
 * every part reads as an identifier.
 */
export function isReference(value: string, options: { strong?: boolean } = {}): boolean {
  const v = value.trim();
  if (v === "" || v.includes(MARKER_PREFIX) || WHOLE_PLACEHOLDER.test(v) || isFiller(v)) return true;
  if (isTemplate(v)) return true;
  return isCode(v, options.strong ?? false);
}

/** A string with placeholders whose literal rest holds nothing that could be a secret. */
export function isTemplate(value: string): boolean {
  PLACEHOLDER.lastIndex = 0;
  if (!PLACEHOLDER.test(value)) return false;
  const rest = value.replace(PLACEHOLDER, " ");
  return !/(?=[\w+=-]*\d)(?=[\w+=-]*[A-Za-z])[\w+=-]{10,}/.test(rest);
}

/** An identifier: words of letters, each perhaps ending in digits (`s3`, `v2`), no digit inside a word. */
const IDENTIFIER = /^[A-Za-z_$](?:[A-Za-z_$]|\d+(?=[A-Z_$]|$))*$/;
const LOOSE_IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Code, not data: a call (`get_password()`), a member path (`self.token`, `config.openai.apiKey`),
 * an index (`os.environ["API_KEY"]`), a type (`Uint8Array`, `Optional[str]`, `str | None`).
 */
function isCode(value: string, strong: boolean): boolean {
  const v = value.replace(/[;,]$/, "");
  const call = /^(?:new\s+|await\s+|typeof\s+)?([A-Za-z_$][\w$]*(?:(?:\.|\?\.|::|->)[A-Za-z_$][\w$]*)*)(?:\(.*\)|\[.*\])+$/s.exec(v);
  if (call) return true;
  const parts = v.split(/\.|\?\.|::|->/);
  if (parts.length > 1 && parts.every((part) => (strong ? IDENTIFIER : LOOSE_IDENTIFIER).test(part))) return true;
  // CamelCase words, each letters then digits: `Ed25519PrivateKey`, `Uint8Array`, not `Xk29fLq8Wz`.
  if (/^(?:[A-Z][a-z]+\d*|[A-Z]{2,}\d*(?=[A-Z][a-z]|$|[<[]))+(?:<.*>|\[.*\])?(?:\s*\|\s*[\w.]+)*$/.test(v)) return true;
  return /^(?:str|string|int|bytes|bool|boolean|number|any|unknown|object|secretstr|char\[\]|byte\[\]|optional\[.*\]|list\[.*\]|dict\[.*\])(?:\s*\|\s*\w+)*$/i.test(
    v,
  );
}

/** A name made of words (`oauth2AccessTokenForTenant`), not a random token: digits only at a word's end. */
export function isWordsIdentifier(value: string): boolean {
  return IDENTIFIER.test(value);
}

/** A lone identifier (`apiKey`, `password`): code wherever a value could be computed. */
export function isIdentifier(value: string): boolean {
  return LOOSE_IDENTIFIER.test(value.replace(/[;,]$/, ""));
}
