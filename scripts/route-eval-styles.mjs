#!/usr/bin/env node
// Leave-one-style-out: for each writing style of the generated sessions, fits the lexical
// router on the routing corpus's train split plus generated sessions of the fitting seed with
// that style's requests removed, then reports that style's figures on generated sessions of
// another seed (other vocabularies). The worst style is the headline. The first row is the
// fit on every style; the committed router (`npm run fit-router`) is fitted on the corpus's
// train split alone. Build first:
//   npm run build && node scripts/route-eval-styles.mjs [--test-seed 2000] [--sessions 60]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fitRouterParameters } from "../dist/dev/fit/fit-router-parameters.js";
import { GENERATED_FIT, generatedForFit } from "../dist/dev/fit/fitting-sessions.js";
import { GENERATED_STYLES, generateSessions } from "../dist/dev/generate-sessions.js";
import { evaluateRouting } from "../dist/lab/route-eval/evaluate-routing.js";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";
import { DEFAULT_OPTIONS } from "../dist/plugin/config/options-schema.js";
import { createLexicalRouter } from "../dist/plugin/core/routing/router.js";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    "test-seed": { type: "string", default: "2000" },
    sessions: { type: "string", default: "60" },
    threshold: { type: "string", default: String(DEFAULT_OPTIONS.confidenceThreshold) },
  },
  strict: true,
});
const count = Number(values.sessions);
const threshold = Number(values.threshold);
const corpus = await readLabelledSessions(join(root, "fixtures", "routing-corpus", "train"));
const generated = generatedForFit();
const test = generateSessions({ seed: Number(values["test-seed"]), sessions: count });

const rows = [];
for (const style of ["(none)", ...GENERATED_STYLES]) {
  const training = generated
    .map((session) => ({ ...session, requests: session.requests.filter((request) => request.style !== style) }))
    .filter((session) => session.requests.length > 0);
  const { parameters } = await fitRouterParameters({ sessions: [...corpus, ...training], splits: [], l2: 1 });
  const evaluation = await evaluateRouting({ sessions: test, router: createLexicalRouter({ parameters, threshold }), threshold });
  if (style === "(none)") {
    rows.push({ style: "all, fit saw every style", ...evaluation.metrics });
    continue;
  }
  const figures = evaluation.byStyle.find((entry) => entry.style === style);
  if (figures) rows.push({ ...figures, style: `${style} (held out)` });
}

const percent = (value) => `${(value * 100).toFixed(1)}%`;
console.log(
  `leave-one-style-out: fit on fixtures/routing-corpus/train + ${GENERATED_FIT.sessions} generated sessions (seed ${GENERATED_FIT.seed}) without the style;`,
);
console.log(`figures on ${count} generated sessions of seed ${values["test-seed"]} (other vocabularies), threshold ${threshold}\n`);
console.log("| style | n | accuracy | fallback | harmful | merge | new-task precision | ECE |");
console.log("|---|---|---|---|---|---|---|---|");
for (const row of rows) {
  console.log(
    `| ${row.style} | ${row.n} | ${percent(row.accuracy)} | ${percent(row.fallbackRate)} | ${percent(row.harmfulConfidentWrongRate)} | ${percent(row.mergeConfidentWrongRate)} | ${percent(row.newTaskPrecision)} | ${row.expectedCalibrationError.toFixed(3)} |`,
  );
}
const held = rows.slice(1);
const worst = (key, better) => held.reduce((a, b) => (better(a[key], b[key]) ? a : b));
console.log("\nworst held-out style:");
console.log(
  `  harmful ${percent(worst("harmfulConfidentWrongRate", (a, b) => a >= b).harmfulConfidentWrongRate)} (${worst("harmfulConfidentWrongRate", (a, b) => a >= b).style})`,
);
console.log(
  `  merge   ${percent(worst("mergeConfidentWrongRate", (a, b) => a >= b).mergeConfidentWrongRate)} (${worst("mergeConfidentWrongRate", (a, b) => a >= b).style})`,
);
console.log(
  `  ECE     ${worst("expectedCalibrationError", (a, b) => a >= b).expectedCalibrationError.toFixed(3)} (${worst("expectedCalibrationError", (a, b) => a >= b).style})`,
);
const anchored = held.filter((row) => /^(exact-file|task-nouns|reviewer-note) /.test(row.style));
console.log(`  fallback on anchored follow-ups ${anchored.map((row) => `${row.style.split(" ")[0]} ${percent(row.fallbackRate)}`).join(", ")}`);
