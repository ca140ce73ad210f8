// What the plug-in does to a provider's prompt cache where its memory has work to do. The mini
// suite's scripted exchanges are tiny, so with the default options a record never replaces
// anything there; real tool outputs are large. Here three tasks interleave for --rounds rounds
// (4: switched, 12 requests) and the first task runs alone (uninterrupted: its 4 requests), each
// request a large tool output (--lines of it), a write and a reply, through the real OpenCode
// in each mode with the default options (or --batch-tokens). The recorded requests go through
// the same prefix-cache simulation as scripts/simulate-prefix-cache.mjs (cl100k tokens,
// 1,024-token minimum, 128-token blocks). Build first:
//   npm run build && node scripts/cache-large-outputs.mjs [--lines 600] [--rounds 4] [--batch-tokens N] [--modes native,router,memory,full]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { get_encoding } from "tiktoken";
import { builtEntry } from "../dist/kit/package-root.js";
import { inputCost, simulatePrefixCache } from "../dist/lab/bench/metrics/prefix-cache.js";
import { createGitRepo } from "../dist/lab/harness/git-repo.js";
import { withScriptedOpencode } from "../dist/lab/harness/scripted-session.js";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "600" },
    rounds: { type: "string", default: "4" },
    "batch-tokens": { type: "string" },
    modes: { type: "string", default: "native,router,memory,full" },
  },
});
const LINES = Number(values.lines);
const BATCH = values["batch-tokens"];
const MODES = values.modes.split(",");
const PLUGIN = builtEntry("./server");
const TASKS = ["alpha", "beta", "gamma"];
const ROUNDS = Number(values.rounds);

/** @type {string[]} */
const SWITCHED = [];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [index, task] of TASKS.entries()) {
    const opening = `${index === 0 ? "Fix" : "New task: fix"} the ${task} helper in src/${task}.py: it must keep rule 1 (${task}-0). Dump src/${task}.txt so I can check it.`;
    SWITCHED.push(round === 0 ? opening : `Back to src/${task}.py: also keep rule ${round + 1}.`);
  }
}
const UNINTERRUPTED = SWITCHED.filter((text) => text.includes("src/alpha.py")).map((text) => text.replace("New task: fix", "Fix"));

/** @param {string} repo */
function script(repo) {
  return {
    stages: SWITCHED.map((text, index) => ({
      id: `s${index}`,
      when: text,
      steps: [
        {
          toolCalls: [
            {
              name: "bash",
              arguments: {
                command: `python3 -c "print('\\n'.join('line%05d of ${index}: the ${TASKS[index % TASKS.length]} data' % i for i in range(${LINES})))"`,
                description: "Dump",
              },
            },
          ],
        },
        // The task's own file: its edits anchor the task for the router.
        { toolCalls: [{ name: "write", arguments: { filePath: join(repo, `src/${TASKS[index % TASKS.length]}.py`), content: `# ${text}\n` } }] },
        { text: `Done ${index}.` },
      ],
    })),
    fallback: { text: "Nothing left." },
  };
}

const encoding = get_encoding("cl100k_base");
/** @param {{ tools?: unknown[]; messages: unknown[] }} body */
function tokensOf(body) {
  const parts = [JSON.stringify(body.tools ?? []), ...body.messages.map((message) => JSON.stringify(message))];
  return Array.from(encoding.encode(parts.join("\n")));
}

/** @param {string} mode */
async function run(mode) {
  const dir = await mkdtemp(join(tmpdir(), `rcm-cache-${mode}-`));
  try {
    const repo = join(dir, "repo");
    await createGitRepo(repo, { "README.md": "# x\n", "src/__init__.py": "" });
    const options = { mode, stateDir: join(dir, "state"), ...(BATCH === undefined ? {} : { memory: { replaceBatchTokens: Number(BATCH) } }) };
    /** @type {Array<[string, Record<string, unknown>]>} */
    const plugins = mode === "native" ? [] : [[PLUGIN, options]];
    return await withScriptedOpencode({ runDir: join(dir, "run"), directory: repo, script: script(repo), plugins }, async ({ client, model, prompt }) => {
      /** @type {Record<string, number[][]>} */
      const sessions = {};
      for (const [condition, asks] of /** @type {const} */ ([
        ["switched", SWITCHED],
        ["uninterrupted", UNINTERRUPTED],
      ])) {
        const seen = (await model.requests()).length;
        const id = (await client.session.create({}, { throwOnError: true })).data.id;
        for (const text of asks) await prompt(id, text);
        // The agent's own calls (with tools); OpenCode's title generation is left out.
        const calls = (await model.requests())
          .slice(seen)
          .map((request) => /** @type {any} */ (request.body))
          .filter((body) => (body.tools ?? []).length > 0);
        sessions[condition] = calls.map(tokensOf);
      }
      return sessions;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** @type {Record<string, Record<string, { calls: number; input: number; cost01: number; cost05: number }>>} */
const rows = {};
for (const mode of MODES) {
  const sessions = await run(mode);
  rows[mode] = {};
  for (const [condition, requests] of Object.entries(sessions)) {
    const cached = simulatePrefixCache(requests);
    rows[mode][condition] = {
      calls: requests.length,
      input: cached.reduce((sum, request) => sum + request.input, 0),
      cost01: inputCost(cached, 0.1),
      cost05: inputCost(cached, 0.5),
    };
  }
}
encoding.free();
console.log(`three tasks, ${ROUNDS} rounds, ${LINES}-line tool outputs, ${BATCH === undefined ? "default options" : `replaceBatchTokens ${BATCH}`}`);
console.log("| mode | condition | model calls | input tokens | cost @0.1 | vs native | vs router | cost @0.5 | vs native | vs router |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const condition of ["uninterrupted", "switched"]) {
  for (const mode of MODES) {
    const row = rows[mode]?.[condition];
    if (!row) continue;
    const native = rows.native?.[condition];
    const router = rows.router?.[condition];
    /** @param {number} value @param {number | undefined} base */
    const ratio = (value, base) => (base ? `${(value / base).toFixed(3)}x` : "n/a");
    console.log(
      `| ${mode} | ${condition} | ${row.calls} | ${row.input} | ${Math.round(row.cost01)} | ${ratio(row.cost01, native?.cost01)} | ${ratio(row.cost01, router?.cost01)} | ${Math.round(row.cost05)} | ${ratio(row.cost05, native?.cost05)} | ${ratio(row.cost05, router?.cost05)} |`,
    );
  }
}
