// The commands on a finished run directory: `bench merge`, `bench score`, `bench report`.

import { join, resolve } from "node:path";
import { mergeRuns } from "../lab/bench/merge-runs.js";
import { rebuildReport } from "../lab/bench/report/rebuild-report.js";
import { rescoreRun } from "../lab/bench/rescore-run.js";
import { oneRunDir, RUN_DIR, withBenchIo } from "./bench-io.js";
import { defineCli } from "./declare.js";

export const merge = defineCli({
  name: "merge",
  description:
    "Combine the shards of one run into one results.jsonl and report; refuses runs of different suites or settings, and an incomplete set of shards.",
  missing: "bench merge needs <run dirs...> --out <dir>",
  misuse: () => "bench merge needs <run dirs...> --out <dir>",
  args: {
    runs: { type: "positional", required: true, variadic: true, description: "<run dirs...>: the shards" },
    out: { type: "string", required: true, valueHint: "dir", description: "the merged run" },
    partial: { type: "boolean", description: "merge although a shard is missing or unfinished (run.json and the report's title say what is missing)" },
  },
  async run(args, context) {
    return withBenchIo(context, async () => {
      const merged = await mergeRuns({ runs: args.runs, out: args.out, partial: args.partial });
      const partial = merged.missing.length > 0 ? `PARTIAL: ${merged.missing.join("; ")}\n` : "";
      return `${partial}${merged.results} session runs merged into ${merged.file}\nreport:  ${join(resolve(args.out), "report.md")}\n`;
    });
  },
});

export const score = defineCli({
  name: "score",
  description: "Re-score every session of a run: its focus checkout where the run kept it (--keep), else its focus.patch.",
  args: { run: RUN_DIR },
  misuse: oneRunDir("bench score"),
  run: (args, context) => withBenchIo(context, async () => `${await rescoreRun(resolve(args.run))}\n`),
});

/** `bench report <run>` (also `opencode-rcm report`): rewrites report.md and report.html. */
export const reportCommand = defineCli({
  name: "report",
  description: "Rebuild report.md and report.html (charts, no network) from results.jsonl (also: opencode-rcm report <run dir>).",
  misuse: oneRunDir("report"),
  args: {
    run: RUN_DIR,
    "cache-read-price": {
      type: "number",
      min: 0,
      max: 1,
      meaning: "a cached token's price against an uncached one",
      description: "cached input tokens are priced at this share of an uncached one (e.g. 0.1)",
    },
  },
  async run(args, context) {
    return withBenchIo(context, async () => {
      const written = await rebuildReport(resolve(args.run), { cacheReadPrice: args["cache-read-price"] });
      return `${written.markdown}\n${written.html}\n`;
    });
  },
});
