// Prefix-cache simulation over a bench run's recorded model requests (build first):
//   node scripts/simulate-prefix-cache.mjs runs/switch-mini
// Per mode and condition: input tokens, and input cost with cached reads at 0.1x and 0.5x,
// as a ratio to native on the same sessions. Tokens: tiktoken cl100k_base over the request
// as a provider sees it (tools, then each message in order).
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { get_encoding } from "tiktoken";
import { inputCost, simulatePrefixCache } from "../dist/lab/bench/metrics/prefix-cache.js";
import { readRequestLog } from "../dist/lab/bench/run-dir/tidy-run-dir.js";

const runDir = process.argv[2];
if (!runDir) {
  console.error("usage: node scripts/simulate-prefix-cache.mjs <bench run directory>");
  process.exit(2);
}
const encoding = get_encoding("cl100k_base");
const SESSION = /sessions\/([^/"\s\\]+)\/(native|router|memory|full)\//;

/** The request as a token stream: tools first (providers put them before the prompt), then messages. */
function tokensOf(body) {
  const parts = [JSON.stringify(body.tools ?? []), ...body.messages.map((message) => JSON.stringify(message))];
  return Array.from(encoding.encode(parts.join("\n")));
}

const rows = new Map();
// A finished run keeps its logs gzipped (<mode>.jsonl.gz); a resumed one may add a plain part.
const logNames = (await readdir(join(runDir, "model-requests"))).map((name) => name.replace(/\.gz$/, ""));
for (const file of [...new Set(logNames)].filter((name) => name.endsWith(".jsonl") && !name.endsWith(".decisions.jsonl")).sort()) {
  const sessions = new Map();
  for (const line of (await readRequestLog(join(runDir, "model-requests", file))).split("\n")) {
    if (line.trim() === "") continue;
    const { body } = JSON.parse(line);
    const text = JSON.stringify(body.messages);
    const match = SESSION.exec(text);
    if (!match) continue;
    const key = `${match[2]} ${match[1]}`;
    if (!sessions.has(key)) sessions.set(key, []);
    sessions.get(key).push(tokensOf(body));
  }
  for (const [key, requests] of sessions) {
    const [mode, session] = key.split(" ");
    const condition = session.endsWith("__switched") ? "switched" : "uninterrupted";
    const cached = simulatePrefixCache(requests);
    const row = rows.get(`${mode}|${condition}`) ?? { mode, condition, sessions: 0, requests: 0, input: 0, cost01: 0, cost05: 0 };
    row.sessions += 1;
    row.requests += requests.length;
    row.input += cached.reduce((sum, request) => sum + request.input, 0);
    row.cost01 += inputCost(cached, 0.1);
    row.cost05 += inputCost(cached, 0.5);
    rows.set(`${mode}|${condition}`, row);
  }
}
encoding.free();
const order = ["native", "router", "memory", "full"];
console.log("| mode | condition | sessions | requests | input tokens | cost @0.1 | vs native | cost @0.5 | vs native |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const condition of ["uninterrupted", "switched"]) {
  const native = rows.get(`native|${condition}`);
  for (const mode of order) {
    const row = rows.get(`${mode}|${condition}`);
    if (!row) continue;
    const ratio = (value, base) => (base ? `${(value / base).toFixed(3)}x` : "n/a");
    console.log(
      `| ${mode} | ${condition} | ${row.sessions} | ${row.requests} | ${row.input} | ${Math.round(row.cost01)} | ${ratio(row.cost01, native?.cost01)} | ${Math.round(row.cost05)} | ${ratio(row.cost05, native?.cost05)} |`,
    );
  }
}
