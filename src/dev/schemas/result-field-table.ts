import { z } from "zod";
import { ResultLineSchema } from "../../lab/bench/run-dir/result-line.js";

/** The markers around the generated table in docs/benchmark-formats.md (`npm run schema` rewrites what is between them). */
const RESULT_FIELDS_START = "<!-- results.jsonl fields: generated from ResultLineSchema by npm run schema; do not edit -->";
const RESULT_FIELDS_END = "<!-- end of the generated results.jsonl fields -->";

interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
}

/**
 * Every field of a results.jsonl line as a markdown table (field, type, meaning), from the zod
 * schema's JSON schema: nested fields dotted (`usage.inputTokens`), an array's entries as
 * `timeline[].task`, optional fields marked. The meaning is the field's description.
 */
function resultFieldTable(): string {
  const root = z.toJSONSchema(ResultLineSchema, { io: "input", unrepresentable: "any" }) as JsonSchemaNode;
  const rows = ["| field | type | meaning |", "|---|---|---|", ...fieldRows(root, "")];
  return rows.join("\n");
}

function fieldRows(node: JsonSchemaNode, prefix: string): string[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).flatMap(([name, field]) => {
    const path = `${prefix}${name}`;
    const row = `| \`${path}\` | ${typeOf(field)}${required.has(name) ? "" : ", optional"} | ${cell(field.description ?? "")} |`;
    const inner = field.items ?? field;
    const nested = inner.properties === undefined ? [] : fieldRows(inner, field.items === undefined ? `${path}.` : `${path}[].`);
    return [row, ...nested];
  });
}

function typeOf(node: JsonSchemaNode): string {
  if (node.enum !== undefined) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(" \\| ");
  if (node.anyOf !== undefined) return node.anyOf.map(typeOf).join(" \\| ");
  if (node.type === "array")
    return node.items?.properties !== undefined ? "array of objects" : `array of ${node.items === undefined ? "any" : typeOf(node.items)}`;
  return Array.isArray(node.type) ? node.type.join(" \\| ") : (node.type ?? "any");
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** `doc` with the generated table between the markers replaced by the current one (docs/benchmark-formats.md). */
export function withResultFieldTable(doc: string): string {
  const start = doc.indexOf(RESULT_FIELDS_START);
  const end = doc.indexOf(RESULT_FIELDS_END);
  if (start === -1 || end < start) throw new Error(`the document has no "${RESULT_FIELDS_START}" ... "${RESULT_FIELDS_END}" section`);
  return `${doc.slice(0, start + RESULT_FIELDS_START.length)}\n${resultFieldTable()}\n${doc.slice(end)}`;
}
