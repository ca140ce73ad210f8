// The plug-in's own CPU, without OpenCode: its server hooks driven in this process over the same
// load as scripts/bench-server-cpu.mjs (concurrent sessions of four requests, three tasks and a
// return to the first, each request a write then a reply), with a fake OpenCode client. Prints
// the CPU time per mode against a run with no plug-in (the driver's own work: building and
// cloning the messages, as OpenCode re-reads them for every call), and with --cpu-prof a
// profile to open in Chrome's DevTools. Build first:
//   npm run build && node scripts/profile-plugin-cpu.mjs [--sessions 20] [--rounds 5] [--modes native,memory,full]
//   node --cpu-prof --cpu-prof-dir /tmp/prof scripts/profile-plugin-cpu.mjs --modes memory --rounds 1
// OpenCode's server runs on Bun, whose JIT differs: the hot spots carry over, the exact times do not.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import plugin from "../dist/plugin/hosts/opencode-1/server/index.js";

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "20" },
    rounds: { type: "string", default: "5" },
    modes: { type: "string", default: "native,memory,full" },
    "batch-tokens": { type: "string" },
  },
});
const SESSIONS = Number(values.sessions);
const ROUNDS = Number(values.rounds);
const MODES = values.modes.split(",");
const BATCH = values["batch-tokens"];

const ASKS = [
  "Fix the date parser in src/dates.py: parse_date crashes on ISO week dates like 2024-W05.",
  "New task: add a --json flag to the command line in src/cli.py so results print as JSON.",
  "New task: the install guide is out of date. docs/install.md lists Python 3.7 as supported, but setup.py requires 3.10 now; update the guide and its version table.",
  "Back to the date parser in src/dates.py: also accept a lowercase w in week dates.",
];
const MODEL = { providerID: "scripted", modelID: "scripted" };

let counter = 0;
const nextID = (prefix) => `${prefix}_${String(++counter).padStart(12, "0")}`;

/** A fake OpenCode client: only what the server part calls. */
function fakeClient(histories) {
  const ok = async (data) => ({ data });
  return {
    app: { log: async () => ({ data: true }) },
    tui: { showToast: async () => ({ data: true }), publish: async () => ({ data: true }) },
    config: {
      get: async () => ok({}),
      providers: async () => ok({ providers: [{ id: "scripted", models: { scripted: { limit: { context: 200_000, output: 8_000 } } } }] }),
    },
    session: {
      get: async () => ok({ parentID: undefined }),
      messages: async ({ path, query }) => {
        const all = structuredClone(histories.get(path.id) ?? []);
        return ok(query?.limit ? all.slice(-query.limit) : all);
      },
    },
  };
}

function userMessage(sessionID, text) {
  const id = nextID("msg");
  return {
    info: { id, sessionID, role: "user", time: { created: Date.now() }, agent: "build", model: MODEL },
    parts: [{ id: nextID("prt"), sessionID, messageID: id, type: "text", text }],
  };
}

function assistantMessage(sessionID, parentID, step, index, repo) {
  const id = nextID("msg");
  const base = {
    id,
    sessionID,
    role: "assistant",
    time: { created: Date.now(), completed: Date.now() },
    parentID,
    modelID: MODEL.modelID,
    providerID: MODEL.providerID,
    mode: "build",
    agent: "build",
    path: { cwd: repo, root: repo },
    cost: 0,
    tokens: { total: 3000, input: 2900, output: 100, reasoning: 0, cache: { read: 0, write: 0 } },
  };
  if (step === 0) {
    const content = `${ASKS[index]}\n`.repeat(20);
    const filePath = join(repo, `notes/${index}.md`);
    return {
      info: { ...base, finish: "tool-calls" },
      parts: [
        { id: nextID("prt"), sessionID, messageID: id, type: "step-start" },
        {
          id: nextID("prt"),
          sessionID,
          messageID: id,
          type: "tool",
          callID: `call_${counter}`,
          tool: "write",
          state: {
            status: "completed",
            input: { filePath, content },
            output: "Wrote file successfully.",
            title: filePath,
            metadata: {},
            time: { start: 1, end: 2 },
          },
        },
        { id: nextID("prt"), sessionID, messageID: id, type: "step-finish", reason: "tool-calls", tokens: base.tokens, cost: 0 },
      ],
    };
  }
  return {
    info: { ...base, finish: "stop" },
    parts: [
      { id: nextID("prt"), sessionID, messageID: id, type: "step-start" },
      { id: nextID("prt"), sessionID, messageID: id, type: "text", text: `Done with step ${index}.` },
      { id: nextID("prt"), sessionID, messageID: id, type: "step-finish", reason: "stop", tokens: base.tokens, cost: 0 },
    ],
  };
}

/** One session's four requests through the hooks, as OpenCode calls them. */
async function runSession(hooks, histories, repo) {
  const sessionID = nextID("ses");
  const history = [];
  histories.set(sessionID, history);
  const call = async () => {
    // OpenCode re-reads the history for every model call: fresh objects each time.
    const output = { messages: structuredClone(history) };
    await hooks["experimental.chat.messages.transform"]?.({}, output);
  };
  const event = (event) => hooks.event?.({ event });
  for (let index = 0; index < ASKS.length; index += 1) {
    const user = userMessage(sessionID, ASKS[index]);
    await hooks["chat.message"]?.({ sessionID, agent: "build", model: MODEL, messageID: user.info.id }, { message: user.info, parts: user.parts });
    history.push(user);
    await call();
    for (const step of [0, 1]) {
      const reply = assistantMessage(sessionID, user.info.id, step, index, repo);
      history.push(reply);
      await event({ type: "message.updated", properties: { info: reply.info } });
      if (step === 0) await call();
    }
    await event({ type: "session.idle", properties: { sessionID } });
    // Let the background memory update run, as the next request comes after it in the bench.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

async function round(mode) {
  const dir = await mkdtemp(join(tmpdir(), `rcm-profile-${mode}-`));
  try {
    const histories = new Map();
    const client = fakeClient(histories);
    const input = { client, project: { id: "profile" }, directory: dir, worktree: dir, serverUrl: new URL("http://127.0.0.1:1"), $: undefined };
    const options = {
      mode: mode === "none" ? "native" : mode,
      stateDir: join(dir, "state"),
      notify: "off",
      ...(BATCH === undefined ? {} : { memory: { replaceBatchTokens: Number(BATCH) } }),
    };
    // A fake client: only what the plug-in calls is there, so it is typed as the real input.
    const hooks = mode === "none" ? {} : await plugin.server(/** @type {any} */ (input), options);
    // Warm up outside the measurement (JIT, the plug-in's first reads).
    await runSession(hooks, histories, dir);
    const start = process.cpuUsage();
    const began = performance.now();
    await Promise.all(Array.from({ length: SESSIONS }, () => runSession(hooks, histories, dir)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const used = process.cpuUsage(start);
    return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - began) / 1000, updates: await memoryUpdates(join(dir, "state")) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How many memory updates the state files log: the check that the memory did its work. */
async function memoryUpdates(stateDir) {
  let total = 0;
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name.endsWith(".json")) total += JSON.parse(await readFile(path, "utf8")).data?.memoryUpdates?.length ?? 0;
    }
  };
  await walk(stateDir);
  return total;
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const labels = ["none", ...MODES];
const results = Object.fromEntries(labels.map((label) => [label, []]));
for (let index = 0; index < ROUNDS; index += 1) {
  const order = index % 2 === 0 ? labels : [...labels].reverse();
  for (const label of order) results[label].push(await round(label));
}
const base = median(results.none.map((r) => r.cpu));
console.log(
  `CPU in this process for ${SESSIONS} concurrent sessions x ${ASKS.length} requests (${SESSIONS * ASKS.length * 2} model calls), median of ${ROUNDS} interleaved rounds`,
);
console.log(`  no plug-in (the driver alone)   ${(base * 1000).toFixed(0)} ms`);
for (const mode of MODES) {
  const cpu = median(results[mode].map((r) => r.cpu));
  const updates = results[mode].at(-1)?.updates ?? 0;
  console.log(
    `  mode ${mode.padEnd(7)} ${(cpu * 1000).toFixed(0)} ms   the plug-in's own ${((cpu - base) * 1000).toFixed(0)} ms, ${(((cpu - base) * 1000) / (SESSIONS * ASKS.length * 2)).toFixed(2)} ms a model call (memory updates logged: ${updates})`,
  );
}
