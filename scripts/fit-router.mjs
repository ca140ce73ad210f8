#!/usr/bin/env node
// Fits the lexical router's parameters on the routing corpus's train split and the development thread sessions (fitting-sessions.ts) and writes them to
// src/plugin/core/routing/router-parameters.ts (run through `npm run fit-router`, which builds first
// and after). The corpus's dev and test splits, the other corpora and the generated sessions
// are never fitted on (scripts/route-eval-styles.mjs fits on generated styles, apart).
// The development thread sessions are read from the materialised set (scripts/build-thread-sessions.mjs):
// --rcm-data <dir>, else $OPENCODE_RCM_DATA, else ../rcm-data beside the repository root.
// A fit of those splits into the committed file also records its inputs beside it
// (router-parameters.inputs.json: the source files the fit reaches, the splits, by sha256), which a
// unit test compares with the tree; a fit of --data or to --out records nothing.
//   node scripts/fit-router.mjs [--l2 1] [--rcm-data <dir>] [--data <dir-or-file>]... [--out <file>]
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fitRouterParameters } from "../dist/dev/fit/fit-router-parameters.js";
import { fittingSessions } from "../dist/dev/fit/fitting-sessions.js";
import { renderRouterParameters } from "../dist/dev/fit/render-router-parameters.js";
import { renderRouterFitInputs, routerFitInputs, routerFitInputsFile } from "../dist/dev/fit/router-fit-inputs.js";
import { materialisedDataDir } from "../dist/dev/thread-sessions/thread-references.js";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    l2: { type: "string", default: "1" },
    data: { type: "string", multiple: true },
    "rcm-data": { type: "string" },
    out: { type: "string" },
  },
  strict: true,
});
const l2 = Number(values.l2);
if (!Number.isFinite(l2) || l2 < 0) throw new Error(`--l2 must be a number >= 0, got "${values.l2}"`);
const committed = join(root, "src", "plugin", "core", "routing", "router-parameters.ts");
let sessions = [];
let splits = [];
if (values.data) {
  for (const path of values.data) sessions.push(...(await readLabelledSessions(path)));
  splits = values.data.map((path) => path.replace(`${root}/`, ""));
} else {
  try {
    ({ sessions, splits } = await fittingSessions(root, values["rcm-data"] ?? materialisedDataDir(root)));
  } catch (error) {
    console.error(`fit-router: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
const started = performance.now();
const { parameters, report } = await fitRouterParameters({ sessions, splits, l2 });
const out = resolve(values.out ?? committed);
await writeFile(out, renderRouterParameters(parameters));
// Recorded after the parameters are written: they are one of the inputs the next fit must see again.
const recordsInputs = values.data === undefined && out === committed;
if (recordsInputs) await writeFile(routerFitInputsFile(root), renderRouterFitInputs(routerFitInputs(root, values["rcm-data"] ?? materialisedDataDir(root))));
console.log(
  `fit-router: ${splits.join(" + ")}: ${sessions.length} sessions, ${report.choices} choices, ${report.groups.length} folds, l2 ${l2}, ${Math.round(performance.now() - started)} ms`,
);
console.log(`  training loss (mean NLL of the right candidate)  ${report.trainingLoss}`);
console.log(`  out-of-fold online decisions                     ${report.outOfFold.decisions}, accuracy ${report.outOfFold.accuracy}`);
console.log(`  out-of-fold ECE before calibration               ${report.outOfFold.eceBefore}`);
console.log(`  out-of-fold ECE after (calibration fitted on them) ${report.outOfFold.eceAfter}`);
console.log(`  calibration ${JSON.stringify(parameters.calibration)}, caps ${JSON.stringify(parameters.caps)}`);
console.log(`wrote ${out}${recordsInputs ? ` and ${routerFitInputsFile(root)}` : ""}`);
