#!/usr/bin/env node
// Measures what remains wrong when the auxiliary model is always right: starts an
// OpenAI-compatible endpoint on 127.0.0.1 that answers each routing prompt with the gold
// task (found by matching the prompt's request texts against the labelled sessions), then
// runs route-eval with the given router through it. What hybrid still gets wrong is the
// lexical router's confidence (it asks the model only below the threshold) or the safety
// rules. Build first:
//   npm run build && node scripts/route-eval-oracle.mjs --router hybrid <file.jsonl | dir>...
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { readLabelledSessions } from "../dist/lab/route-eval/labelled-sessions.js";
import { renderRouteEval } from "../dist/lab/route-eval/render-route-eval.js";
import { runRouteEval } from "../dist/lab/route-eval/run-route-eval.js";
import { DEFAULT_OPTIONS } from "../dist/plugin/config/options-schema.js";

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
  const found = (session, text) => session.requests.find((candidate) => key(candidate.text).startsWith(text) || text.startsWith(key(candidate.text)));
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

let calls = 0;
let unplaced = 0;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const parsed = JSON.parse(body);
    const prompt = parsed.messages.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n");
    const reply = answer(prompt);
    if (!reply) unplaced += 1;
    const json = JSON.stringify(reply ?? { task: "new", title: "unplaced", confidence: 0.1, related: [], shared: false, reason: "not found" });
    // Answers vary in shape as models' do: bare, fenced, or with a remark after the object.
    const content = [json, `\`\`\`json\n${json}\n\`\`\``, `${json}\nThat is my best reading.`][calls++ % 3];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: `oracle-${calls}`,
        object: "chat.completion",
        created: 0,
        model: "oracle",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 },
      }),
    );
  });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
const env = { ...process.env, RCM_AUX_BASE_URL: `http://127.0.0.1:${port}/v1`, RCM_AUX_MODEL: "oracle", RCM_AUX_API_KEY: "oracle" };
try {
  const evaluation = await runRouteEval({
    paths: positionals,
    router: /** @type {"lexical" | "model" | "hybrid"} */ (values.router),
    threshold: Number(values.threshold),
    env,
  });
  console.log(renderRouteEval(evaluation).split("\nwrong decisions")[0]);
  console.log(`  oracle: ${calls} calls, ${unplaced} it could not place`);
} finally {
  server.close();
}
