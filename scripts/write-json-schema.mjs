// Writes what is generated from the zod schemas (run after the build: npm run schema):
// rcm.schema.json (the options), schemas/*.schema.json (the bench's suite files and a
// results.jsonl line) and the results.jsonl field table in docs/benchmark-formats.md.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { BENCH_SCHEMAS_DIR, renderBenchJsonSchemas } from "../dist/dev/schemas/bench-json-schemas.js";
import { renderJsonSchema } from "../dist/dev/schemas/options-json-schema.js";
import { withResultFieldTable } from "../dist/dev/schemas/result-field-table.js";

await writeFile(new URL("../rcm.schema.json", import.meta.url), renderJsonSchema());
console.log("wrote rcm.schema.json");
const dir = new URL(`../${BENCH_SCHEMAS_DIR}/`, import.meta.url);
await mkdir(dir, { recursive: true });
for (const { file, text } of renderBenchJsonSchemas()) {
  await writeFile(new URL(file, dir), text);
  console.log(`wrote ${BENCH_SCHEMAS_DIR}/${file}`);
}
const doc = new URL("../docs/benchmark-formats.md", import.meta.url);
await writeFile(doc, withResultFieldTable(await readFile(doc, "utf8")));
console.log("wrote the results.jsonl fields in docs/benchmark-formats.md");
