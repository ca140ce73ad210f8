#!/usr/bin/env node
// Measures what remains wrong when the auxiliary model is always right: starts an
// OpenAI-compatible endpoint on 127.0.0.1 that answers each routing prompt with the gold
// task (found by matching the prompt's request texts against the labelled sessions), then
// runs route-eval with the given router through it. What hybrid still gets wrong is the
// lexical router's confidence (it asks the model only below the threshold) or the safety
// rules. Build first:
//   npm run build && node scripts/route-eval-oracle.mjs --router hybrid <file.jsonl | dir>...
import { parseArgs } from "node:util";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";
import { renderRouteEval } from "../dist/lab/route-eval/render-route-eval.js";
import { runRouteEval } from "../dist/lab/route-eval/run-route-eval.js";
import { DEFAULT_OPTIONS } from "../dist/plugin/config/options-schema.js";
import { startOracleEndpoint } from "./lib/oracle-endpoint.mjs";

const { values, positionals } = parseArgs({
  options: { router: { type: "string", default: "hybrid" }, threshold: { type: "string", default: String(DEFAULT_OPTIONS.confidenceThreshold) } },
  allowPositionals: true,
  strict: true,
});
if (positionals.length === 0) {
  console.error("usage: node scripts/route-eval-oracle.mjs [--router hybrid|model] <file.jsonl | dir>...");
  process.exit(2);
}
const sessions = [];
for (const path of positionals) sessions.push(...(await readLabelledSessions(path)));
const key = (text) => text.replace(/\s+/g, " ").trim().replace(/…$/, "").slice(0, 300);

/** The gold answer for one routing prompt, or undefined when the prompt cannot be placed. */
function answer(prompt) {
  const request = key(prompt.match(/<request>\n([\s\S]*?)\n<\/request>/)?.[1] ?? "");
  const listed = [...prompt.matchAll(/^- (t\d+)( \(current\))?: .*$((?:\n {2}.*)*)/gm)].map((match) => ({
    id: match[1],
    current: Boolean(match[2]),
    requests: [...(match[3] ?? "").matchAll(/^ {2}request: (.*)$/gm)].map((line) => key(line[1])),
  }));
  // A task resumed from an earlier session lists that session's requests too (the current session's come first: the request routed is one of them).
  const found = (session, text) =>
    [...session.requests, ...(session.earlier ?? []).flatMap((earlier) => earlier.requests)].find(
      (candidate) => key(candidate.text).startsWith(text) || text.startsWith(key(candidate.text)),
    );
  let best;
  for (const session of sessions) {
    if (!found(session, request)) continue;
    const score = listed.reduce((sum, task) => sum + task.requests.filter((text) => found(session, text)).length, 0);
    if (!best || score > best.score) best = { session, score };
  }
  if (!best) return undefined;
  const gold = found(best.session, request).task;
  const current = listed.find((task) => task.current)?.id ?? listed.at(-1)?.id ?? "new";
  if (gold === "*") return { task: current, title: "", confidence: 0.95, related: [], shared: true, reason: "meant for every task" };
  const owner = listed.find((task) => {
    const golds = task.requests.map((text) => found(best.session, text)?.task).filter((label) => label && label !== "*");
    return golds.length > 0 && golds.filter((label) => label === gold).length * 2 > golds.length;
  });
  return owner
    ? { task: owner.id, title: "", confidence: 0.95, related: [], shared: false, reason: "the request continues it" }
    : { task: "new", title: gold, confidence: 0.95, related: [], shared: false, reason: "no listed task covers it" };
}

const oracle = await startOracleEndpoint(answer, { task: "new", title: "unplaced", confidence: 0.1, related: [], shared: false, reason: "not found" });
try {
  const evaluation = await runRouteEval({
    paths: positionals,
    router: /** @type {"lexical" | "model" | "hybrid"} */ (values.router),
    threshold: Number(values.threshold),
    env: oracle.env,
  });
  // The figures only: no request's decision (the held-out sets' stay unread).
  console.log(renderRouteEval(evaluation).split(/\n\n(?:wrong decisions|resumptions wrong or missed)/)[0]);
  console.log(`  oracle: ${oracle.calls()} calls, ${oracle.unplaced()} it could not place`);
} finally {
  oracle.close();
}
