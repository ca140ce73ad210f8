#!/usr/bin/env node
// Measures the router on the IRC disentanglement corpus (sessions built by
// scripts/build-irc-sessions.mjs): route-eval's online replay, one session per annotated file,
// then the router's tasks scored as conversations (one-to-one, scaled VI, exact-match F1; the
// paper's definitions, src/lab/route-eval/conversation-overlap.ts) next to the baselines, per
// file and pooled, with the router's own figures. Markdown on stdout (the same for the same
// data and build); timings on stderr. Develop on ubuntu-train and ubuntu-dev only: ubuntu-test
// and the other channels are never tuned on. Build first:
//   npm run build && node scripts/irc-eval.mjs [--data ../rcm-data/irc] [--per-session] [--json out.json] <split>...
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkGoldAgrees, ircSplitReport, renderIrcSplitReport, renderIrcSummary } from "../dist/dev/irc/irc-report.js";
import { IrcGoldSchema } from "../dist/dev/irc/irc-sessions.js";
import { evaluateRouting } from "../dist/lab/route-eval/evaluate-routing.js";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";
import { DEFAULT_OPTIONS } from "../dist/plugin/config/options-schema.js";
import { createLexicalRouter } from "../dist/plugin/core/routing/router.js";

const root = resolve(import.meta.dirname, "..");
const { values, positionals } = parseArgs({
  options: {
    data: { type: "string", default: resolve(root, "..", "rcm-data", "irc") },
    threshold: { type: "string", default: String(DEFAULT_OPTIONS.confidenceThreshold) },
    "per-session": { type: "boolean", default: false },
    json: { type: "string" },
  },
  allowPositionals: true,
  strict: true,
});
if (positionals.length === 0) {
  console.error("usage: node scripts/irc-eval.mjs [--data <dir>] [--threshold 0.8] [--per-session] [--json <file>] <split>...  (e.g. ubuntu-dev)");
  process.exit(2);
}
const threshold = Number(values.threshold);
if (!(threshold > 0 && threshold <= 1)) throw new Error(`--threshold must be in (0, 1], got "${values.threshold}"`);

const reports = [];
for (const split of positionals) {
  const sessions = await readLabelledSessions(join(values.data, `${split}.jsonl`));
  const goldFile = join(values.data, `${split}.gold.json`);
  let json;
  try {
    json = JSON.parse(await readFile(goldFile, "utf8"));
  } catch (error) {
    throw new Error(`${goldFile}: (file): ${error instanceof Error ? error.message : String(error)} (build it with scripts/build-irc-sessions.mjs)`);
  }
  const parsed = IrcGoldSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${goldFile}: ${issue?.path.map(String).join(".") || "(file)"}: ${issue?.message ?? "invalid"}`);
  }
  checkGoldAgrees(goldFile, sessions, parsed.data.sessions);
  const router = createLexicalRouter({ threshold });
  const evaluated = [];
  const started = performance.now();
  let slowest = { id: "", ms: 0, requests: 0 };
  // One session at a time, for its time; route-eval starts each session afresh either way.
  for (const session of sessions) {
    const at = performance.now();
    const evaluation = await evaluateRouting({ sessions: [session], router, threshold, ids: "written" });
    const ms = performance.now() - at;
    if (ms > slowest.ms) slowest = { id: session.id, ms, requests: session.requests.length };
    evaluated.push(...evaluation.requests);
  }
  const routed = performance.now() - started;
  const report = ircSplitReport({ split, threshold, gold: parsed.data.sessions, evaluated });
  reports.push({ ...report, commit: parsed.data.commit });
  console.error(
    `${split}: ${sessions.length} sessions, ${evaluated.length} requests routed in ${(routed / 1000).toFixed(1)} s ` +
      `(${(routed / evaluated.length).toFixed(2)} ms a request; slowest session ${slowest.id}, ${slowest.requests} requests, ${(slowest.ms / 1000).toFixed(1)} s)`,
  );
  process.stdout.write(`${renderIrcSplitReport(report, { perSession: values["per-session"] })}\n`);
}
if (reports.length > 1) process.stdout.write(`## Summary\n\n${renderIrcSummary(reports)}\n`);
process.stdout.write(`\nCorpus: jkkummerfeld/irc-disentanglement at ${[...new Set(reports.map((report) => report.commit))].join(", ")}.\n`);
if (values.json) await writeFile(values.json, `${JSON.stringify(reports, null, 2)}\n`);
