#!/usr/bin/env node
// Measures what the model memory updater's path loses when the auxiliary model is always
// right: starts an OpenAI-compatible endpoint on 127.0.0.1 that answers each memory update
// with the gold requirement clauses of the request in it (found by its message id), then runs
// memory-eval with the model updater through it. What is still missed or extra is the plug-in's
// own doing (the proposal's rules, the record's bounds), not the model's. Build first:
//   npm run build && node scripts/memory-eval-oracle.mjs <file.jsonl | dir>...
import { readRequirementSet } from "../dist/lab/memory-eval/requirement-set.js";
import { modelUpdaterFromEnv, renderMemoryEval, runMemoryEval } from "../dist/lab/memory-eval/run-memory-eval.js";
import { startOracleEndpoint } from "./lib/oracle-endpoint.mjs";

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error("usage: node scripts/memory-eval-oracle.mjs <file.jsonl | dir>...");
  process.exit(2);
}
const gold = new Map();
for (const path of paths) for (const request of await readRequirementSet(path)) gold.set(`msg_${request.id.replace(/[^\w-]/g, "_")}`, request);

/** The record a right model would write for the one request in the prompt: its gold clauses, as asked and pending. */
function answer(prompt) {
  const id = prompt.match(/\[user message (msg_[\w-]+)\]/)?.[1];
  const request = id === undefined ? undefined : gold.get(id);
  if (!request) return undefined;
  const { requirements } = request;
  return {
    goal: requirements[0] ?? "",
    constraints: requirements.map((text) => ({ text, sources: [id] })),
    superseded: [],
    progress: [],
    pending: requirements,
    files: [],
    uncertainties: [],
  };
}

const oracle = await startOracleEndpoint(answer, { goal: "", constraints: [], superseded: [], progress: [], pending: [], files: [], uncertainties: [] });
try {
  const evaluation = await runMemoryEval(paths, { updater: modelUpdaterFromEnv(oracle.env) });
  console.log(renderMemoryEval(evaluation, { updater: "model (an always-right stand-in)" }));
  console.log(`\noracle: ${oracle.calls()} calls, ${oracle.unplaced()} it could not place`);
} finally {
  oracle.close();
}
