#!/usr/bin/env node
// Measures what the model memory updater's path loses when the auxiliary model is always
// right: starts an OpenAI-compatible endpoint on 127.0.0.1 that answers each memory update
// with the gold requirement clauses of the request in it (found by its message id), then runs
// memory-eval with the model updater through it. What is still missed or extra is the plug-in's
// own doing (the proposal's rules, the record's bounds), not the model's. Build first:
//   npm run build && node scripts/memory-eval-oracle.mjs <file.jsonl | dir>...
import { createServer } from "node:http";
import { readRequirementSet } from "../dist/lab/memory-eval/requirement-set.js";
import { modelUpdaterFromEnv, renderMemoryEval, runMemoryEval } from "../dist/lab/memory-eval/run-memory-eval.js";

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error("usage: node scripts/memory-eval-oracle.mjs <file.jsonl | dir>...");
  process.exit(2);
}
const gold = new Map();
for (const path of paths) for (const request of await readRequirementSet(path)) gold.set(`msg_${request.id.replace(/[^\w-]/g, "_")}`, request);

let calls = 0;
let unplaced = 0;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const prompt = JSON.parse(body)
      .messages.map((message) => (typeof message.content === "string" ? message.content : ""))
      .join("\n");
    const id = prompt.match(/\[user message (msg_[\w-]+)\]/)?.[1];
    const request = id === undefined ? undefined : gold.get(id);
    if (!request) unplaced += 1;
    const proposal = {
      goal: request?.requirements[0] ?? "",
      constraints: (request?.requirements ?? []).map((text) => ({ text, sources: [id] })),
      superseded: [],
      progress: [],
      pending: request?.requirements ?? [],
      files: [],
      uncertainties: [],
    };
    const json = JSON.stringify(proposal);
    // Answers vary in shape as models' do: bare, fenced, or with a remark after the object.
    const content = [json, `\`\`\`json\n${json}\n\`\`\``, `${json}\nThat is the record.`][calls++ % 3];
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
  const evaluation = await runMemoryEval(paths, { updater: modelUpdaterFromEnv(env) });
  console.log(renderMemoryEval(evaluation, { updater: "model (an always-right stand-in)" }));
  console.log(`\noracle: ${calls} calls, ${unplaced} it could not place`);
} finally {
  server.close();
}
