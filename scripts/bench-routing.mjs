// Speed figures for the router (a report, not a timed test; it always exits 0):
// - lexical routing per user request (routeRequest + folding the request's evidence into
//   the task index) in a session of 50 tasks and 2,000 interaction groups; target <= 5 ms;
// - extractSignals alone, for scale;
// - the transform per model call (the call view + the narrowing step, and the plug-in's whole
//   model call, built as a host builds it (createRcm), in router mode, and in full mode with a
//   memory record that covers the current task's older groups) on histories of 100, 1,000 and
//   10,000 messages; targets <= 1 / 2 / 8 ms;
// - the heap after building each history (the 10,000-message one is a long session's).
// Figures are p50 (median), p95 and p99 of one run (machines are noisy); a verdict compares the
// median with its target. All data is synthetic and generated from a fixed seed.
//
// Run: npm run bench:routing   (builds dist/ first; the script imports the built modules)

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

// The modules the benchmark runs, by their path under a build's dist/ (today's layout).
const MODULES = {
  optionsSchema: "plugin/config/options-schema.js",
  callView: "plugin/core/context/call-view.js",
  contextPlan: "plugin/core/context/context-plan.js",
  narrowToTask: "plugin/core/context/narrow-to-task.js",
  interactionGroups: "plugin/core/interaction-groups.js",
  groupTasks: "plugin/core/routing/group-tasks.js",
  routeRequest: "plugin/core/routing/route-request.js",
  router: "plugin/core/routing/router.js",
  signals: "plugin/core/routing/signals.js",
  taskIndex: "plugin/core/routing/task-index.js",
  rcm: "plugin/handlers/rcm.js",
  sessionStateFile: "plugin/store/session-state-file.js",
};

// Where an older build (before the floor plan of issue 38) kept the same modules.
const OLD_LAYOUT = [
  ["plugin/config/", "config/"],
  ["plugin/core/", "core/"],
  ["plugin/store/", "store/"],
  ["plugin/handlers/", "plugin/hooks/"],
];

/** A module's file in the build at `dist`: today's path, else the older layout's. */
function modulePath(dist, path) {
  const current = join(dist, path);
  if (existsSync(current)) return current;
  for (const [now, before] of OLD_LAYOUT) {
    if (!path.startsWith(now)) continue;
    const old = join(dist, before + path.slice(now.length));
    if (existsSync(old)) return old;
  }
  throw new Error(`${path} is in neither layout of ${dist}`);
}

/** Every module the benchmark runs, from the package at `packageDir` (its dist/). */
async function loadBuild(packageDir) {
  const dist = join(packageDir, "dist");
  const loaded = {};
  for (const [name, path] of Object.entries(MODULES)) loaded[name] = await import(pathToFileURL(modulePath(dist, path)).href);
  return {
    packageDir,
    DEFAULT_OPTIONS: loaded.optionsSchema.DEFAULT_OPTIONS,
    buildCallView: loaded.callView.buildCallView,
    applyPlan: loaded.contextPlan.applyPlan,
    EMPTY_PLAN: loaded.contextPlan.EMPTY_PLAN,
    narrowToTask: loaded.narrowToTask.narrowToTask,
    toInteractionGroups: loaded.interactionGroups.toInteractionGroups,
    groupTasks: loaded.groupTasks.groupTasks,
    routeRequest: loaded.routeRequest.routeRequest,
    createLexicalRouter: loaded.router.createLexicalRouter,
    extractSignals: loaded.signals.extractSignals,
    TaskIndex: loaded.taskIndex.TaskIndex,
    createRcm: loaded.rcm.createRcm,
    sessionStateFile: loaded.sessionStateFile.sessionStateFile,
  };
}

/** `--baseline <package dir>`: another build whose transform is timed beside this one's. */
function baselineArgument(args) {
  const at = args.indexOf("--baseline");
  if (at === -1) return undefined;
  const dir = args[at + 1];
  if (!dir) throw new Error("--baseline needs a package directory (one with a built dist/)");
  return resolve(dir);
}

const BASELINE_DIR = baselineArgument(process.argv.slice(2));
const build = await loadBuild(resolve(fileURLToPath(new URL("..", import.meta.url))));
const baseline = BASELINE_DIR === undefined ? undefined : await loadBuild(BASELINE_DIR);
const { DEFAULT_OPTIONS, TaskIndex, extractSignals, groupTasks, routeRequest, toInteractionGroups } = build;

const SEED = 0x5eed;
const ROUTING = { tasks: 50, groups: 2000, warmUp: 50, requests: 500, targetMs: 5 };
const TRANSFORM = {
  tasks: 20,
  warmUp: 20,
  iterations: 200,
  sizes: [
    { messages: 100, targetMs: 1 },
    { messages: 1_000, targetMs: 2 },
    { messages: 10_000, targetMs: 8 },
  ],
};
const THRESHOLD = DEFAULT_OPTIONS.confidenceThreshold;
const lexicalRouter = build.createLexicalRouter({ threshold: THRESHOLD });
const SESSION_ID = "ses_bench";

// ---------------------------------------------------------------------------------------
// Deterministic random numbers (mulberry32)

function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (count) => Math.floor(next() * count);
  const between = (low, high) => low + int(high - low + 1);
  const pick = (values) => values[int(values.length)];
  const chance = (probability) => next() < probability;
  const sample = (values, count) => {
    const copy = [...values];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, count);
  };
  return { next, int, between, pick, chance, sample };
}

// ---------------------------------------------------------------------------------------
// Vocabulary: every task has its own module directory, files, symbols and topic words;
// all tasks share the common words.

const TOPIC_WORDS = (
  "billing invoice ledger currency refund coupon cart checkout shipping parcel courier tracking warehouse inventory " +
  "supplier catalog variant pricing discount receipt payout merchant subscription renewal trial quota webhook signature " +
  "token cookie login password avatar profile notification email digest template locale translation timezone calendar " +
  "schedule reminder cron queue worker retry backoff throttle cache eviction snapshot migration schema replica shard " +
  "backup restore archive export upload thumbnail image video transcoder playlist search ranking autocomplete tokenizer " +
  "stemmer crawler sitemap redirect middleware proxy gateway certificate firewall audit permission role tenant invite " +
  "comment thread mention reaction emoji markdown editor toolbar sidebar modal tooltip dropdown pagination scroll theme " +
  "palette font layout grid chart histogram metric gauge alert dashboard tracing span formatter lexer compiler bundler " +
  "loader watcher debounce clipboard keyboard shortcut gesture geolocation marker compass weather forecast sensor " +
  "telemetry battery firmware bluetooth printer barcode scanner"
).split(" ");
const COMMON_WORDS = (
  "the when we call with a empty value it returns wrong result instead of should keep handle after update missing seems " +
  "like fails on every second request because old config still sometimes users see error message page load slow crash " +
  "null undefined timeout broken flaky edge case default option field list order date format number rounding duplicate " +
  "entries in and but so please check why this happens make sure"
).split(" ");
const FILE_ROLES = ["service", "store", "parser", "client", "view", "model", "handler", "schema", "worker", "format"];
const VERBS = ["parse", "load", "build", "apply", "compute", "sync", "resolve", "render", "validate", "merge"];
const NOUNS = ["Total", "State", "Entry", "Config", "Batch", "Window", "Range", "Key", "Item", "Record"];
const SYLLABLES = ["ka", "lo", "mi", "ter", "van", "quo", "zor", "pel", "dra", "nix", "bru", "sef", "gal", "tum", "wek"];

const capitalise = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** A task's own vocabulary, around `topics` (module `dir`, files under it, symbols). */
function taskVocabulary(random, dir, topics) {
  const files = random.sample(FILE_ROLES, random.between(4, 6)).map((role, position) => `${dir}/${topics[position % topics.length]}_${role}.ts`);
  files.push(`test/${dir.split("/").pop()}/${topics[0]}.test.ts`);
  const symbols = topics.flatMap((topic) => [`${random.pick(VERBS)}${capitalise(topic)}${random.pick(NOUNS)}`, `${topic}_${random.pick(NOUNS).toLowerCase()}`]);
  return { dir, files, symbols, topics };
}

function buildVocabularies(random, count) {
  return Array.from({ length: count }, (_, position) => taskVocabulary(random, `src/mod${position + 1}`, random.sample(TOPIC_WORDS, 5)));
}

/** A vocabulary of words no task has seen: a new issue in a new module. */
function novelVocabulary(random, serial) {
  const word = () => random.sample(SYLLABLES, 3).join("");
  return taskVocabulary(random, `src/fresh${serial}`, [word(), word(), word(), word(), word()]);
}

/** `count` words: mostly common, some topic words, the odd symbol or file of `vocabulary`. */
function words(random, vocabulary, count) {
  return Array.from({ length: count }, () => {
    const roll = random.next();
    if (roll < 0.3) return random.pick(vocabulary.topics);
    if (roll < 0.36) return random.chance(0.5) ? `\`${random.pick(vocabulary.symbols)}\`` : random.pick(vocabulary.symbols);
    if (roll < 0.38) return random.pick(vocabulary.files);
    return random.pick(COMMON_WORDS);
  });
}

const sentence = (parts) => `${parts.join(" ")}.`;

/** A request as it opens or continues work on a task: 15-40 words. */
function groupRequestText(random, vocabulary) {
  const opener = random.pick([
    [`In ${random.pick(vocabulary.files)}`],
    [`The ${random.pick(vocabulary.symbols)} function`],
    ["Users report that the", random.pick(vocabulary.topics)],
    ["now", random.pick(vocabulary.topics)],
    [],
  ]);
  return sentence([...opener, ...words(random, vocabulary, random.between(15, 40) - opener.length)]);
}

/** What the work on a request touched, as tool evidence: 1-4 files, 0-3 symbols. */
function toolEvidence(random, vocabulary) {
  return {
    paths: random.sample(vocabulary.files, random.between(1, 4)),
    workspaces: [],
    symbols: random.sample(vocabulary.symbols, random.between(0, 3)),
  };
}

// ---------------------------------------------------------------------------------------
// Routing

/**
 * A session as the plug-in would hold it after `groups` interactions: the task index
 * with every group's evidence folded in, and the ledger with a decision per request.
 * Tasks open at even intervals over the first 80% of the groups; in between, work runs
 * on one task for a while and then moves to another open one.
 */
function buildRoutingSession(random, vocabularies, groupCount) {
  const index = new TaskIndex();
  const ledger = { tasks: [], decisions: {}, order: [] };
  const openEvery = Math.floor((groupCount * 0.8) / vocabularies.length);
  let current = -1;
  for (let group = 0; group < groupCount; group++) {
    const opened = ledger.tasks.length;
    const messageID = `msg_g${group}`;
    if (opened < vocabularies.length && group >= opened * openEvery) {
      current = opened;
      const id = `t${current + 1}`;
      const title = `${capitalise(vocabularies[current].topics[0])} ${vocabularies[current].topics[1]} in ${vocabularies[current].dir}`;
      index.addTask(id, title);
      ledger.tasks.push({ id, title, openedBy: messageID });
    } else if (random.chance(0.3)) {
      current = random.int(opened);
    }
    const task = `t${current + 1}`;
    ledger.decisions[messageID] = decisionEntry(task, false);
    ledger.order.push(messageID);
    index.addEvidence(task, { text: groupRequestText(random, vocabularies[current]), ...toolEvidence(random, vocabularies[current]) });
    index.current = task;
  }
  return { index, ledger, intended: current };
}

function decisionEntry(task, opened) {
  return { task, opened, confidence: 0.95, related: [], shared: false, reason: "bench", router: "lexical" };
}

/**
 * One request of the timed mix: a follow-up on the current task (55%), a switch that names
 * another task's file (35%), or a new issue in an unseen module (10%). `intended` is the
 * vocabulary the work will touch.
 */
function benchRequest(random, vocabularies, current) {
  const roll = random.next();
  if (roll < 0.55) {
    const vocabulary = vocabularies[current];
    const opener = random.pick(["now", "also", "and", "can you", "ok, now", "still"]);
    return { kind: "follow-up", intended: current, text: sentence([opener, ...words(random, vocabulary, random.between(14, 24))]) };
  }
  if (roll < 0.9) {
    let target = random.int(vocabularies.length);
    if (target === current) target = (target + 1) % vocabularies.length;
    const vocabulary = vocabularies[target];
    const opener = random.pick([
      [`Back to ${random.pick(vocabulary.files)}:`],
      [`In ${random.pick(vocabulary.files)} the`, random.pick(vocabulary.symbols)],
      [`Switching to ${random.pick(vocabulary.files)},`],
    ]);
    return { kind: "switch", intended: target, text: sentence([...opener, ...words(random, vocabulary, random.between(14, 36))]) };
  }
  vocabularies.push(novelVocabulary(random, vocabularies.length + 1));
  const target = vocabularies.length - 1;
  const vocabulary = vocabularies[target];
  const opener = random.chance(0.5)
    ? ["Separate issue:", random.pick(vocabulary.files)]
    : [`${capitalise(vocabulary.topics[0])} in`, random.pick(vocabulary.files)];
  return { kind: "new issue", intended: target, text: sentence([...opener, ...words(random, vocabulary, random.between(16, 36))]) };
}

/** Times route + fold per request, as the plug-in does for each user message. */
async function benchRouting(random) {
  const vocabularies = buildVocabularies(random, ROUTING.tasks);
  let { index, ledger, intended } = buildRoutingSession(random, vocabularies, ROUTING.groups);
  const startTasks = index.size;
  const samples = [];
  const texts = [];
  const decided = { stay: 0, switch: 0, new: 0 };
  const asked = { "follow-up": 0, switch: 0, "new issue": 0 };
  for (let n = 0; n < ROUTING.warmUp + ROUTING.requests; n++) {
    const request = benchRequest(random, vocabularies, intended);
    const evidence = { text: request.text, ...toolEvidence(random, vocabularies[request.intended]) };
    const previous = index.current;
    const started = performance.now();
    const routed = await routeRequest({ router: lexicalRouter, ledger, index, messageID: `msg_r${n}`, text: request.text, threshold: THRESHOLD });
    index.addEvidence(routed.task.id, evidence);
    const elapsed = performance.now() - started;
    ledger = routed.ledger;
    intended = request.intended;
    if (n < ROUTING.warmUp) continue;
    samples.push(elapsed);
    texts.push(request.text);
    asked[request.kind] += 1;
    decided[routed.entry.opened ? "new" : routed.task.id === previous ? "stay" : "switch"] += 1;
  }
  return {
    stats: summarise(samples),
    signals: benchSignals(texts),
    startTasks,
    endTasks: index.size,
    endGroups: ROUTING.groups + ROUTING.warmUp + ROUTING.requests,
    asked,
    decided,
  };
}

/** extractSignals alone on the timed requests' texts, after one warm-up pass. */
function benchSignals(texts) {
  for (const text of texts) extractSignals(text);
  return summarise(
    texts.map((text) => {
      const started = performance.now();
      extractSignals(text);
      return performance.now() - started;
    }),
  );
}

// ---------------------------------------------------------------------------------------
// Transform

/**
 * A session history of exactly `count` messages: user requests over `tasks` tasks, each
 * answered by 2-5 assistant steps (step-start, text, one tool call, step-finish), and a
 * ledger with a confident decision per request.
 */
function buildHistory(random, count, tasks) {
  const vocabularies = buildVocabularies(random, tasks);
  const messages = [];
  const ledger = { tasks: [], decisions: {}, order: [] };
  let clock = 1_700_000_000_000;
  let current = 0;
  for (let group = 0; messages.length < count; group++) {
    if (ledger.tasks.length < tasks && (group === 0 || random.chance(0.15))) current = ledger.tasks.length;
    else if (random.chance(0.3)) current = random.int(ledger.tasks.length);
    const task = `t${current + 1}`;
    const user = userMessage(`msg_u${group}`, groupRequestText(random, vocabularies[current]), (clock += 1000));
    const opened = ledger.tasks.length <= current;
    if (opened) ledger.tasks.push({ id: task, title: vocabularies[current].topics.join(" "), openedBy: user.info.id });
    ledger.decisions[user.info.id] = decisionEntry(task, opened);
    ledger.order.push(user.info.id);
    messages.push(user);
    const steps = Math.min(random.between(2, 5), count - messages.length);
    for (let step = 0; step < steps; step++) {
      messages.push(assistantMessage(random, `msg_u${group}_a${step}`, user.info.id, vocabularies[current], (clock += 1000)));
    }
  }
  return { messages, ledger };
}

function userMessage(id, text, created) {
  return {
    info: { id, sessionID: SESSION_ID, role: "user", time: { created }, agent: "build", model: { providerID: "bench", modelID: "bench-model" } },
    parts: [{ id: `${id}_p0`, sessionID: SESSION_ID, messageID: id, type: "text", text }],
  };
}

function assistantMessage(random, id, parentID, vocabulary, created) {
  const part = (suffix, fields) => ({ id: `${id}_${suffix}`, sessionID: SESSION_ID, messageID: id, ...fields });
  const tokens = { input: random.between(2_000, 60_000), output: random.between(50, 800), reasoning: 0, cache: { read: 0, write: 0 } };
  return {
    info: {
      id,
      sessionID: SESSION_ID,
      role: "assistant",
      parentID,
      time: { created, completed: created + 900 },
      modelID: "bench-model",
      providerID: "bench",
      mode: "build",
      agent: "build",
      path: { cwd: "/tmp/bench", root: "/tmp/bench" },
      cost: 0,
      tokens,
    },
    parts: [
      part("p0", { type: "step-start" }),
      part("p1", { type: "text", text: words(random, vocabulary, random.between(10, 30)).join(" ") }),
      part("p2", toolPart(random, id, vocabulary, created)),
      part("p3", { type: "step-finish", reason: "tool-calls", cost: 0, tokens }),
    ],
  };
}

function toolPart(random, id, vocabulary, created) {
  const tool = random.pick(["edit", "bash", "read"]);
  const file = random.pick(vocabulary.files);
  const input = tool === "bash" ? { command: `npx vitest run ${file}` } : { filePath: `/tmp/bench/${file}` };
  return {
    type: "tool",
    callID: `call_${id}`,
    tool,
    state: {
      status: "completed",
      input,
      output: words(random, vocabulary, random.between(20, 60)).join(" "),
      title: "",
      metadata: {},
      time: { start: created + 100, end: created + 800 },
    },
  };
}

/** The pure transform path: the call view, the narrowing step, the plan applied. */
function runPureTransform(build, messages, ledger) {
  const { buildCallView, narrowToTask, EMPTY_PLAN, applyPlan } = build;
  const view = buildCallView({ messages, ledger });
  const { plan, note } = narrowToTask({ view, ledger, plan: EMPTY_PLAN, threshold: THRESHOLD, fallback: "full" });
  return { ...note, messages: applyPlan(messages, plan) };
}

/**
 * The plug-in as a host builds it (handlers/rcm.ts `createRcm`, with the bench's own host) in
 * router mode, with the real per-session routing state: the ledger read from a state file, the
 * groups of every call folded into the router's index; in mode full, with `record` as the
 * current task's record in that file. Each call is the plug-in's whole model call (the tool
 * gates, then the transform).
 */
async function createBenchHandler(build, ledger, messages, mode = "router", record = undefined) {
  const { sessionStateFile, createRcm } = build;
  const dir = await mkdtemp(join(tmpdir(), "rcm-bench-"));
  const stateDir = join(dir, "state");
  const sessionID = messages[0].info.sessionID;
  await sessionStateFile(stateDir, sessionID).save({
    sessionID,
    ledger,
    records: record ? { [record.task]: record } : {},
    memoryUpdates: [],
    off: false,
    saved: { calls: 0, routingTokens: 0, memoryTokens: 0 },
  });
  const rcm = await createRcm({ host: benchHost(dir, messages), rawOptions: { mode, stateDir }, env: {}, home: dir });
  return { handler: (/** @type {unknown[]} */ copy) => rcm.modelCall(copy), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The bench's host: one project in `dir`, one session with `messages`, no models, no screen, no log. */
function benchHost(dir, messages) {
  const none = async () => {
    throw new Error("the bench's host opens no sessions and asks no model");
  };
  return {
    logger: { log: async () => {} },
    project: { id: "prj_bench", worktree: dir, directory: dir },
    source: {
      parentID: async () => undefined,
      messages: async () => messages,
      recentMessages: async (/** @type {string} */ _id, /** @type {number} */ limit) => messages.slice(-limit),
    },
    split: { describe: none, create: none, seed: none, show: none },
    modelLimits: async () => ({ models: [] }),
    models: () => ({ ask: none, smallModel: async () => undefined, sessionModel: async () => undefined }),
    toast: async () => {},
    terminal: undefined,
    loaded: () => {},
  };
}

/**
 * A record of the last request's task covering every older group of it, with a realistic size;
 * undefined when the task has no older group (no record can exist yet: it covers at least one).
 * @returns {import("../dist/plugin/core/memory/record.js").TaskRecord | undefined}
 */
function recordOfCurrentTask(messages, ledger) {
  const groups = toInteractionGroups(messages);
  const tasks = groupTasks(groups, ledger);
  const current = ledger.decisions[groups.findLast((group) => group.kind === "request").id].task;
  const covered = groups
    .filter((_, position) => tasks[position]?.kind === "task" && tasks[position].task === current)
    .map((group) => group.id)
    .slice(0, -1);
  if (covered.length === 0) return undefined;
  const item = (n) => ({ text: `Edited src/module${n}.ts to handle case ${n}`, sources: [`call_${n}`] });
  return {
    version: 1,
    task: current,
    goal: "Make the exporter quote every field that needs it",
    constraints: Array.from({ length: 8 }, (_, n) => ({
      id: `c${n + 1}`,
      text: `The exporter must keep rule number ${n} from the review`,
      sources: [covered[0]],
    })),
    progress: Array.from({ length: 40 }, (_, n) => item(n)),
    pending: ["Handle newlines"],
    files: ["src/exporter.ts"],
    uncertainties: [],
    coverage: { through: covered[covered.length - 1], groups: covered },
    lastUpdate: { updater: "extractive", groups: covered.length, notes: [] },
  };
}

/**
 * Times both paths on one history, for this build and (with --baseline) the other one. Each
 * call gets a fresh shallow copy (OpenCode re-reads the history for every model call); the
 * copy is made outside the timed span. The paths and the builds alternate (the builds' order
 * swapped at every call), so all of them see the same machine noise.
 */
async function benchTransformSize(messages, ledger, builds) {
  const record = recordOfCurrentTask(messages, ledger);
  const runs = [];
  for (const each of builds) {
    runs.push({
      build: each,
      router: await createBenchHandler(each, ledger, messages),
      withMemory: await createBenchHandler(each, ledger, messages, "full", record),
      pure: [],
      handled: [],
      remembered: [],
      selection: undefined,
      handlerOutput: [],
      memoryOutput: [],
    });
  }
  for (let n = 0; n < TRANSFORM.warmUp + TRANSFORM.iterations; n++) {
    const ordered = n % 2 === 0 ? runs : [...runs].reverse();
    for (const run of ordered) {
      const copy = messages.slice();
      const started = performance.now();
      run.selection = runPureTransform(run.build, copy, ledger);
      if (n >= TRANSFORM.warmUp) run.pure.push(performance.now() - started);
    }
    for (const run of ordered) {
      const copy = messages.slice();
      const started = performance.now();
      await run.router.handler(copy);
      if (n >= TRANSFORM.warmUp) run.handled.push(performance.now() - started);
      run.handlerOutput = copy;
    }
    for (const run of ordered) {
      const copy = messages.slice();
      const started = performance.now();
      await run.withMemory.handler(copy);
      if (n >= TRANSFORM.warmUp) run.remembered.push(performance.now() - started);
      run.memoryOutput = copy;
    }
  }
  for (const run of runs) {
    await run.router.remove();
    await run.withMemory.remove();
  }
  return runs.map((run) => ({
    pure: { stats: summarise(run.pure), selection: run.selection },
    handler: { stats: summarise(run.handled), kept: run.handlerOutput.length, output: run.handlerOutput },
    memory: { stats: summarise(run.remembered), kept: run.memoryOutput.length, output: run.memoryOutput },
  }));
}

async function benchTransform(random) {
  const builds = baseline ? [build, baseline] : [build];
  const results = [];
  for (const { messages: count, targetMs } of TRANSFORM.sizes) {
    const { messages, ledger } = buildHistory(random, count, TRANSFORM.tasks);
    const heapMB = process.memoryUsage().heapUsed / 2 ** 20;
    const [current, before] = await benchTransformSize(messages, ledger, builds);
    results.push({ count, targetMs, heapMB, ...current, ...(before ? { baseline: before } : {}) });
  }
  return results;
}

// ---------------------------------------------------------------------------------------
// Statistics and report

function summarise(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share) => sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
  return { median: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1], count: sorted.length };
}

const thousands = (value) => value.toLocaleString("en-US");
const ms = (value) => `${value < 0.1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
const verdict = (stats, targetMs) => (stats.median <= targetMs ? "OK" : "OVER  <<<");
const figures = (stats) => `p50 ${ms(stats.median).padEnd(9)} p95 ${ms(stats.p95).padEnd(9)} p99 ${ms(stats.p99).padEnd(9)} max ${ms(stats.max).padEnd(9)}`;

function renderReport({ routing, transform }) {
  const cpu = cpus();
  const lines = [
    `opencode-rcm router benchmark — node ${process.version}, ${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores`,
    `${"routing".padEnd(10)} ${`${routing.startTasks} tasks / ${thousands(ROUTING.groups)} groups`.padEnd(30)} ${figures(routing.stats)} (target <= ${ROUTING.targetMs} ms)  ${verdict(routing.stats, ROUTING.targetMs)}`,
    `${"signals".padEnd(10)} ${"extractSignals alone".padEnd(30)} ${figures(routing.signals)}`,
  ];
  for (const size of transform) {
    const label = `${thousands(size.count)} messages`;
    lines.push(
      `${"transform".padEnd(10)} ${`${label}, pure`.padEnd(30)} ${figures(size.pure.stats)} (target <= ${size.targetMs} ms)  ${verdict(size.pure.stats, size.targetMs)}`,
      `${"".padEnd(10)} ${`${label}, handler`.padEnd(30)} ${figures(size.handler.stats)} (target <= ${size.targetMs} ms)  ${verdict(size.handler.stats, size.targetMs)}`,
      `${"".padEnd(10)} ${`${label}, full + memory`.padEnd(30)} ${figures(size.memory.stats)} (target <= ${size.targetMs} ms)  ${verdict(size.memory.stats, size.targetMs)}`,
    );
  }
  lines.push("");
  lines.push(
    `routing: ${routing.stats.count} timed requests after ${ROUTING.warmUp} warm-up; asked ${routing.asked["follow-up"]} follow-ups, ` +
      `${routing.asked.switch} switches, ${routing.asked["new issue"]} new issues; router stayed ${routing.decided.stay}, ` +
      `switched ${routing.decided.switch}, opened ${routing.decided.new}`,
  );
  lines.push(
    `routing: index at the end holds ${routing.endTasks} tasks / ${thousands(routing.endGroups)} groups (started at ${routing.startTasks} / ${thousands(ROUTING.groups)})`,
  );
  for (const size of transform) {
    const { selection } = size.pure;
    lines.push(
      `transform ${thousands(size.count)}: kept ${thousands(selection.messages.length)} of ${thousands(size.count)} messages ` +
        `(${selection.keptGroups} of ${selection.totalGroups} groups, task ${selection.task}); handler kept ${thousands(size.handler.kept)}; ` +
        `with memory ${thousands(size.memory.kept)} (record message included); ` +
        `heap after building the history ${size.heapMB.toFixed(1)} MB`,
    );
  }
  lines.push(
    `transform: ${TRANSFORM.iterations} timed calls per size after ${TRANSFORM.warmUp} warm-up, each on a fresh shallow copy; verdicts compare the median`,
  );
  if (baseline) lines.push("", ...renderBaseline(transform));
  return lines.join("\n");
}

/** With --baseline: both builds' medians side by side (timed interleaved in this run), and whether their outputs match. */
function renderBaseline(transform) {
  const lines = [
    `baseline ${baseline.packageDir} against this build ${build.packageDir} (interleaved in this run, same histories)`,
    `${"".padEnd(10)} ${"".padEnd(30)} ${"p50 baseline".padEnd(13)} ${"p50 new".padEnd(10)} new/baseline  same output`,
  ];
  const row = (label, before, now, same) =>
    `${"".padEnd(10)} ${label.padEnd(30)} ${ms(before.median).padEnd(13)} ${ms(now.median).padEnd(10)} ${(now.median / before.median).toFixed(2).padEnd(13)} ${same ? "yes" : "NO  <<<"}`;
  for (const size of transform) {
    const label = `${thousands(size.count)} messages`;
    const before = size.baseline;
    lines.push(
      `${"transform".padEnd(10)} ${row(`${label}, pure`, before.pure.stats, size.pure.stats, sameJSON(before.pure.selection, size.pure.selection)).trimStart()}`,
      row(`${label}, handler`, before.handler.stats, size.handler.stats, sameJSON(before.handler.output, size.handler.output)),
      row(`${label}, full + memory`, before.memory.stats, size.memory.stats, sameJSON(before.memory.output, size.memory.output)),
    );
  }
  return lines;
}

const sameJSON = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function main() {
  const random = createRandom(SEED);
  const routing = await benchRouting(random);
  const transform = await benchTransform(random);
  console.log(renderReport({ routing, transform }));
}

await main();
