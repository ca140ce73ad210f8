// The plug-in's cost to the OpenCode server: CPU time of `opencode serve` (user + system,
// from /proc; tool processes not counted) under a scripted load of concurrent sessions,
// without the plug-in and with it (mode full, or --mode), rounds interleaved so both see the same
// machine. Build first: npm run build && node scripts/bench-server-cpu.mjs [--sessions 20] [--rounds 3] [--mode full]
// [--batch-tokens N]: memory.replaceBatchTokens (the extractive updater brings each record up
// to date after every turn whatever it is; the batch decides when exchanges are replaced).
// [--floor]: a third side, a plug-in with the same hooks that does nothing in them: what any
// plug-in of this shape costs the server (OpenCode calling its hooks, handing it every event).
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { builtEntry } from "../dist/kit/package-root.js";
import { createGitRepo } from "../dist/lab/harness/git-repo.js";
import { withScriptedOpencode } from "../dist/lab/harness/scripted-session.js";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "20" },
    rounds: { type: "string", default: "3" },
    mode: { type: "string", default: "full" },
    "batch-tokens": { type: "string" },
    baseline: { type: "string" },
    floor: { type: "boolean", default: false },
  },
});
const BATCH = values["batch-tokens"];
const OPTIONS = { mode: values.mode, ...(BATCH === undefined ? {} : { memory: { replaceBatchTokens: Number(BATCH) } }) };
const MODE = values.mode;
const SESSIONS = Number(values.sessions);
const ROUNDS = Number(values.rounds);
const PLUGIN = builtEntry("./server");
const TICKS = 100; // USER_HZ on Linux

// Each session: three tasks, a return to the first, each request with a write and a reply.
const ASKS = [
  "Fix the date parser in src/dates.py: parse_date crashes on ISO week dates like 2024-W05.",
  "New task: add a --json flag to the command line in src/cli.py so results print as JSON.",
  "New task: the install guide is out of date. docs/install.md lists Python 3.7 as supported, but setup.py requires 3.10 now; update the guide and its version table.",
  "Back to the date parser in src/dates.py: also accept a lowercase w in week dates.",
];
function script(repo) {
  return {
    stages: ASKS.map((text, index) => ({
      id: `s${index}`,
      when: text,
      steps: [
        { toolCalls: [{ name: "write", arguments: { filePath: join(repo, `notes/${index}.md`), content: `${text}\n`.repeat(20) } }] },
        { text: `Done with step ${index}.` },
      ],
    })),
  };
}

function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function round(label, plugins) {
  const dir = await mkdtemp(join(tmpdir(), `rcm-cpu-${label}-`));
  try {
    const repo = join(dir, "repo");
    await createGitRepo(repo, { "README.md": "# load\n", "src/dates.py": "def parse_date(text):\n    pass\n" });
    return await withScriptedOpencode({ runDir: join(dir, "run"), directory: repo, script: script(repo), plugins }, async ({ client, server, prompt }) => {
      // Warm up (instance, plug-in load) outside the measurement.
      const warm = (await client.session.create({}, { throwOnError: true })).data.id;
      await prompt(warm, ASKS[0]);
      const start = cpuSeconds(server.pid);
      const began = Date.now();
      const turns = [];
      await Promise.all(
        Array.from({ length: SESSIONS }, async () => {
          const id = (await client.session.create({}, { throwOnError: true })).data.id;
          for (const text of ASKS) {
            const turnStart = performance.now();
            await prompt(id, text);
            turns.push(performance.now() - turnStart);
          }
        }),
      );
      return { cpu: cpuSeconds(server.pid) - start, wall: (Date.now() - began) / 1000, turnMs: median(turns) };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
// The same hooks as opencode-rcm's server part, each doing nothing.
const FLOOR_PLUGIN = `export default { id: "empty-plugin", server: async () => ({
  config: async () => {},
  "command.execute.before": async () => {},
  "chat.message": async () => {},
  "experimental.chat.messages.transform": async () => {},
  "experimental.session.compacting": async () => {},
  event: async () => {},
}) };
`;
const floorDir = values.floor ? await mkdtemp(join(tmpdir(), "rcm-cpu-floor-")) : undefined;
const floorPlugin = floorDir === undefined ? undefined : join(floorDir, "empty-plugin.js");
if (floorPlugin !== undefined) await writeFile(floorPlugin, FLOOR_PLUGIN);
/** @type {Array<[string, Array<[string, object]>]>} */
const SIDES = [
  ["native", []],
  ["plug-in", [[PLUGIN, OPTIONS]]],
  ...(values.baseline ? [/** @type {[string, Array<[string, object]>]} */ (["baseline", [[builtEntry("./server", values.baseline), OPTIONS]]])] : []),
  ...(floorPlugin ? [/** @type {[string, Array<[string, object]>]} */ (["floor", [[floorPlugin, {}]]])] : []),
];
/** @type {Record<string, Array<{ cpu: number; wall: number; turnMs: number }>>} */
const results = Object.fromEntries(SIDES.map(([label]) => [label, []]));
for (let index = 0; index < ROUNDS; index += 1) {
  for (const [label, plugins] of index % 2 === 0 ? SIDES : [...SIDES].reverse()) {
    const result = await round(label, plugins);
    results[label].push(result);
    console.error(
      `round ${index + 1} ${label}: server CPU ${result.cpu.toFixed(2)} s, wall ${result.wall.toFixed(1)} s, median turn ${result.turnMs.toFixed(0)} ms`,
    );
  }
}
const native = median(results.native.map((r) => r.cpu));
const nativeTurn = median(results.native.map((r) => r.turnMs));
console.log(`server CPU for ${SESSIONS} concurrent sessions x ${ASKS.length} requests, median of ${ROUNDS} interleaved rounds`);
console.log(`  without the plug-in   ${native.toFixed(2)} s`);
for (const [label] of SIDES.slice(1)) {
  const cpu = median(results[label].map((r) => r.cpu));
  // The ratio of the medians, and the median of each round's ratio (the two sides ran back to back).
  const perRound = median(results[label].map((r, index) => r.cpu / (results.native[index]?.cpu ?? Number.NaN)));
  const turn = median(results[label].map((r) => r.turnMs));
  const what = label === "baseline" ? `baseline ${values.baseline}` : label === "floor" ? "an empty plug-in" : "with it";
  console.log(
    `  ${what}${label === "floor" ? "" : ` (mode ${MODE}${BATCH === undefined ? "" : `, batch ${BATCH}`})`}   ${cpu.toFixed(2)} s   ratio ${(cpu / native).toFixed(3)}, median of the rounds' ratios ${perRound.toFixed(3)}   (target <= 1.05); turn latency ${turn.toFixed(0)} ms against ${nativeTurn.toFixed(0)} ms, ${(turn / nativeTurn).toFixed(3)}`,
  );
}
if (floorDir !== undefined) await rm(floorDir, { recursive: true, force: true });
