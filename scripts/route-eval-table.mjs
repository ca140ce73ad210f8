#!/usr/bin/env node
// One row per labelled set: what the router buys (narrowed right: after each session's first
// request, sure and right) beside what it risks (harmful and merge confident-wrong), the
// fallback, calibration, and what narrowed calls carried, with the edits as given and with
// 10% of turns editing a wrong task's file. Build first:
//   npm run build && node scripts/route-eval-table.mjs name=path [name=path ...] [--markdown]
import { parseArgs } from "node:util";
import { evaluateRouting } from "../dist/lab/route-eval/evaluate-routing.js";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";
import { DEFAULT_OPTIONS } from "../dist/plugin/config/options-schema.js";
import { createLexicalRouter } from "../dist/plugin/core/routing/router.js";

const { values, positionals } = parseArgs({
  options: {
    threshold: { type: "string", default: String(DEFAULT_OPTIONS.confidenceThreshold) },
    "wrong-edits": { type: "string", default: "0.1" },
    markdown: { type: "boolean", default: false },
  },
  allowPositionals: true,
  strict: true,
});
if (positionals.length === 0) {
  console.error("usage: node scripts/route-eval-table.mjs name=<file.jsonl | directory> [...] [--threshold 0.8] [--wrong-edits 0.1] [--markdown]");
  process.exit(2);
}
const threshold = Number(values.threshold);
const wrongEdits = Number(values["wrong-edits"]);
const percent = (value) => `${(value * 100).toFixed(1)}%`;
const header = [
  "set",
  "n",
  "narrowed right",
  "fallback",
  "harmful",
  "merge",
  "ECE",
  "narrowed calls",
  "carried other",
  "missed own",
  `carried/missed, ${percent(wrongEdits)} wrong edits`,
];
const rows = [];
for (const argument of positionals) {
  const [name, path] = argument.includes("=") ? argument.split(/=(.*)/s) : [argument, argument];
  const sessions = await readLabelledSessions(path);
  const run = (share) => evaluateRouting({ sessions, router: createLexicalRouter({ threshold }), threshold, wrongEdits: share });
  const given = (await run(0)).metrics;
  const perturbed = (await run(wrongEdits)).metrics;
  rows.push([
    name,
    String(given.n),
    percent(given.narrowedRight),
    percent(given.fallbackRate),
    percent(given.harmfulConfidentWrongRate),
    percent(given.mergeConfidentWrongRate),
    given.expectedCalibrationError.toFixed(3),
    String(given.narrowedCalls.n),
    percent(given.narrowedCalls.carriedOther),
    percent(given.narrowedCalls.missedOwn),
    `${percent(perturbed.narrowedCalls.carriedOther)} / ${percent(perturbed.narrowedCalls.missedOwn)} (harmful ${percent(perturbed.harmfulConfidentWrongRate)})`,
  ]);
}
if (values.markdown) {
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} else {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  "));
}
