#!/usr/bin/env node
// Fits the lexical router's parameters on the routing corpus's train split and the development thread sessions (fitting-sessions.ts) and writes them to
// src/plugin/core/routing/router-parameters.ts (run through `npm run fit-router`, which builds first
// and after). The corpus's dev and test splits, the other corpora and the generated sessions
// are never fitted on (scripts/route-eval-styles.mjs fits on generated styles, apart).
//   node scripts/fit-router.mjs [--l2 1] [--data <dir-or-file>]... [--out <file>]
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fitRouterParameters } from "../dist/dev/fit/fit-router-parameters.js";
import { fittingSessions } from "../dist/dev/fit/fitting-sessions.js";
import { renderRouterParameters } from "../dist/dev/fit/render-router-parameters.js";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    l2: { type: "string", default: "1" },
    data: { type: "string", multiple: true },
    out: { type: "string", default: join(root, "src", "plugin", "core", "routing", "router-parameters.ts") },
  },
  strict: true,
});
const l2 = Number(values.l2);
if (!Number.isFinite(l2) || l2 < 0) throw new Error(`--l2 must be a number >= 0, got "${values.l2}"`);
let { sessions, splits } = await fittingSessions(root);
if (values.data) {
  sessions = [];
  for (const path of values.data) sessions.push(...(await readLabelledSessions(path)));
  splits = values.data.map((path) => path.replace(`${root}/`, ""));
}
const started = performance.now();
const { parameters, report } = await fitRouterParameters({ sessions, splits, l2 });
await writeFile(values.out, renderRouterParameters(parameters));
console.log(
  `fit-router: ${splits.join(" + ")}: ${sessions.length} sessions, ${report.choices} choices, ${report.groups.length} folds, l2 ${l2}, ${Math.round(performance.now() - started)} ms`,
);
console.log(`  training loss (mean NLL of the right candidate)  ${report.trainingLoss}`);
console.log(`  out-of-fold online decisions                     ${report.outOfFold.decisions}, accuracy ${report.outOfFold.accuracy}`);
console.log(`  out-of-fold ECE before calibration               ${report.outOfFold.eceBefore}`);
console.log(`  out-of-fold ECE after (calibration fitted on them) ${report.outOfFold.eceAfter}`);
console.log(`  calibration ${JSON.stringify(parameters.calibration)}, caps ${JSON.stringify(parameters.caps)}`);
console.log(`wrote ${values.out}`);
