import type { SecretSpan } from "./spans.js";

/**
 * The body lines of private key blocks: PEM and OpenSSH (encrypted ones too), PGP private key
 * blocks, PuTTY key files. Only lines that read as key material count, from the header to
 * the END line or the first other line, so a header constant in code never takes the code
 * after it. A block cut off before its END line still loses its base64 lines.
 */
const BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:/g;
const BODY_LINE = /^\s*(?:[A-Za-z0-9+/=]{4,}|=[A-Za-z0-9+/]{4}|[A-Za-z-]+: [^\n]*|)\s*$/;
const END = /^\s*-----END [A-Z0-9 ]+-----|^\s*Private-MAC:/;

export function keyBlockFindings(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  BEGIN.lastIndex = 0;
  for (let found = BEGIN.exec(text); found !== null; found = BEGIN.exec(text)) {
    let at = text.indexOf("\n", found.index);
    // Keys quoted in JSON or code carry `\n` escapes instead of line breaks.
    const escaped = at < 0 || text.slice(found.index + found[0].length, found.index + found[0].length + 2) === "\\n";
    const lines = escaped ? escapedLines(text, found.index + found[0].length) : realLines(text, at + 1);
    for (const line of lines) {
      if (END.test(line.text)) break;
      if (!BODY_LINE.test(line.text)) break;
      const body = /[A-Za-z0-9+/=]{4,}/.exec(line.text);
      if (body && !/^\s*[A-Za-z-]+: /.test(line.text))
        spans.push({ start: line.start + body.index, end: line.start + body.index + body[0].length, kind: "private-key" });
      at = line.start;
    }
  }
  return spans;
}

function* realLines(text: string, start: number): Generator<{ text: string; start: number }> {
  let at = start;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    const end = newline < 0 ? text.length : newline;
    yield { text: text.slice(at, end).replace(/\r$/, ""), start: at };
    if (newline < 0) return;
    at = newline + 1;
  }
}

function* escapedLines(text: string, start: number): Generator<{ text: string; start: number }> {
  let at = start;
  while (at < text.length && text.startsWith("\\n", at)) {
    at += 2;
    const next = text.indexOf("\\n", at);
    const stop = /["'\n]/.exec(text.slice(at));
    const end = Math.min(next < 0 ? text.length : next, stop ? at + stop.index : text.length);
    yield { text: text.slice(at, end), start: at };
    if (end !== next) return;
    at = end;
  }
}
