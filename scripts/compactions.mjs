// Compactions per session of a bench run, per mode, from its recorded model requests (scripted
// agent), and which calls after each compaction carried the focus task's memory record.
// Build first: node scripts/compactions.mjs <bench run directory> [--condition switched]
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readRequestLog } from "../dist/lab/bench/run-dir/tidy-run-dir.js";
import { isCompactionRequest, messageText } from "../dist/lab/scripted-model/index.js";

const { values, positionals } = parseArgs({ options: { condition: { type: "string", default: "switched" } }, allowPositionals: true });
const runDir = positionals[0];
if (!runDir) {
  console.error("usage: node scripts/compactions.mjs <bench run directory> [--condition switched|uninterrupted|all]");
  process.exit(2);
}
// The request text is "<workspace>: <request>"; a session's focus task has the workspace of its first request.
const WORKSPACE = /(\/[^\s"\\]*\/sessions\/([^/"\s\\]+)\/(native|router|memory|full)\/ws\d+):/;
const RECORD = /<rcm-task-memory task="t\d+">[\s\S]*?<\/rcm-task-memory>/g;

const modes = [];
// A finished run keeps its logs gzipped (<mode>.jsonl.gz); a resumed one may add a plain part.
const logNames = (await readdir(join(runDir, "model-requests"))).map((name) => name.replace(/\.gz$/, ""));
for (const file of [...new Set(logNames)].filter((name) => name.endsWith(".jsonl") && !name.endsWith(".decisions.jsonl")).sort()) {
  const sessions = new Map();
  for (const line of (await readRequestLog(join(runDir, "model-requests", file))).split("\n")) {
    if (line.trim() === "") continue;
    const { body } = JSON.parse(line);
    const lastUser = messageText(body.messages.findLast((message) => message.role === "user")?.content);
    const all = body.messages.map((message) => messageText(message.content)).join("\n");
    const match = WORKSPACE.exec(all);
    if (!match) continue;
    const session = match[2];
    if (values.condition !== "all" && !session.endsWith(`__${values.condition}`)) continue;
    if (!sessions.has(session)) sessions.set(session, { focus: match[1], calls: [] });
    const entry = sessions.get(session);
    const requestText =
      body.messages
        .filter((message) => message.role === "user")
        .map((message) => messageText(message.content))
        .filter((text) => !text.includes("<rcm-task-memory"))
        .at(-1) ?? "";
    entry.calls.push({
      compaction: isCompactionRequest(lastUser),
      forFocus: requestText.startsWith(`${entry.focus}:`),
      focusRecord: (all.match(RECORD) ?? []).some((record) => record.includes(`${entry.focus}:`)),
    });
  }
  modes.push({ mode: file.replace(/\.jsonl$/, ""), sessions });
}
const order = ["native", "router", "memory", "full"];
modes.sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
const native = modes.find((entry) => entry.mode === "native");
const count = (entry) => [...entry.sessions.values()].reduce((sum, session) => sum + session.calls.filter((call) => call.compaction).length, 0);
console.log(`| mode | sessions | compactions per session | total | vs native | focus calls after a compaction | of them with the focus record |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
for (const entry of modes) {
  const per = [...entry.sessions.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, session]) => session.calls.filter((call) => call.compaction).length);
  let after = 0;
  let carried = 0;
  for (const session of entry.sessions.values()) {
    let compacted = false;
    for (const call of session.calls) {
      if (call.compaction) compacted = true;
      else if (compacted && call.forFocus) {
        after += 1;
        if (call.focusRecord) carried += 1;
      }
    }
  }
  const ratio = native && count(native) > 0 ? (count(entry) / count(native)).toFixed(2) : "-";
  console.log(
    `| ${entry.mode} | ${entry.sessions.size} | ${per.join(" ")} | ${count(entry)} | ${ratio}x | ${after} | ${entry.mode === "native" || entry.mode === "router" ? "-" : carried} |`,
  );
}
