// Secret redaction on the secrets-world corpus: positives caught (no secret survives) and
// negatives intact (byte for byte), per family. The `test` split is held out: nothing is tuned
// on it, and its misses are not printed. Build first:
//   npm run build && node scripts/redaction-eval.mjs [--split train|test|all] [--verbose]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadRedactionCorpus, scoreRedaction } from "../dist/dev/evaluate-redaction.js";
import { packageRoot } from "../dist/kit/package-root.js";
import { redactSecrets } from "../dist/plugin/core/redaction/redact-secrets.js";

const { values } = parseArgs({
  options: { split: { type: "string", default: "all" }, verbose: { type: "boolean", default: false }, corpus: { type: "string" } },
});
if (!["train", "test", "all"].includes(values.split)) {
  console.error(`redaction-eval: --split must be train, test or all, not "${values.split}"`);
  process.exit(2);
}
const corpus = await loadRedactionCorpus(values.corpus ?? join(packageRoot(), "fixtures", "secrets-world"));
const pick = (entries) => entries.filter((entry) => values.split === "all" || entry.split === values.split);
const score = await scoreRedaction({ positives: pick(corpus.positives), negatives: pick(corpus.negatives) }, redactSecrets);
const pct = (a, b) => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);
console.log(
  `split ${values.split}: positives caught ${score.caught}/${score.positives} (${pct(score.caught, score.positives)}), secrets removed ${score.secretsRemoved}/${score.secrets}, negatives intact ${score.intact}/${score.negatives} (${pct(score.intact, score.negatives)}), malformed ${score.malformed}`,
);
console.log("| family | caught | intact |\n| --- | --- | --- |");
for (const row of score.families)
  console.log(`| ${row.family} | ${row.positives ? `${row.caught}/${row.positives}` : "-"} | ${row.negatives ? `${row.intact}/${row.negatives}` : "-"} |`);
if (values.verbose) {
  if (values.split !== "train") console.log("(misses are printed for the train split only)");
  else {
    for (const miss of score.missed)
      console.log(`MISSED ${miss.id}: ${miss.leaked.map((s) => JSON.stringify(s)).join(", ")}\n  ${miss.output.replace(/\n/g, "\n  ")}`);
    for (const change of score.changed) console.log(`CHANGED ${change.id}:\n  ${change.output.replace(/\n/g, "\n  ")}`);
  }
}
