// Writes rcm.schema.json from the options' zod schema (run after the build: npm run schema).
import { writeFile } from "node:fs/promises";
import { renderJsonSchema } from "../dist/config/json-schema.js";

await writeFile(new URL("../rcm.schema.json", import.meta.url), renderJsonSchema());
console.log("wrote rcm.schema.json");
