import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { UsageError } from "../cli-error.js";
import { MODES, type Mode } from "../config/options-schema.js";
import { packageRoot } from "../harness/package-root.js";
import { rebuildReport } from "./report/rebuild-report.js";
import { rescoreRun } from "./rescore-run.js";
import { type BenchProgress, runBench } from "./run-bench.js";
import { runFiles } from "./run-dir/run-files.js";

/** `bench mini`'s sessions: the first repository's five tasks, each uninterrupted and switched (under 10 minutes for 4 modes and 2 regimes here). */
const MINI_SESSIONS = 10;

import type { AgentChoice } from "./drive/agent-model.js";
import { describeScriptedAgent } from "./drive/describe-agent.js";
import { isRegime, REGIME_NAMES, REGIMES } from "./drive/regimes.js";
import { mergeRuns } from "./merge-runs.js";
import { type RegimeRun, writeRegimesReport } from "./report/regimes-report.js";
import { readResults } from "./run-dir/read-results.js";
import { parseShard } from "./shard.js";
import { loadTasks } from "./suite/load-suite.js";
import { makeSessions, writeSessions } from "./suite/make-sessions.js";
import { importReports } from "./swebench/import-reports.js";
import { importSwebench } from "./swebench/import-swebench.js";
import { exportPredictions } from "./swebench/predictions.js";

export const BENCH_USAGE = `  bench mini [--agent faithful|scripted] [--regimes roomy,tight] [--modes native,router,memory,full]
          [--sessions 10] [--concurrency 3] [--out runs/switch-mini] [--model provider/model [--provider-config <file>]]
          The offline benchmark on the bundled mini suite (fixtures/switch-mini): each mode in each
          regime (a run per regime in <out>/<regime>), with the faithful scripted agent; prints
          native's switched gap, what each mode recovers and why sessions failed (<out>/report.md,
          report.html). Scripted agent: mechanism, not model quality. --sessions 30: the whole
          suite (about 3x longer). --model: one run with that model instead.
  bench run --suite <dir> --out <dir> (--agent scripted|faithful [--regime roomy|tight] | --model provider/model [--provider-config <file>])
          [--modes native,router,full] [--sessions N] [--concurrency N] [--seed S]
          [--budget-s 900] [--max-continuations 3] [--test-timeout-s 900]
          [--env local|docker [--image <name, {instance_id} {repo}>]] [--shard i/n]
          Run a Switch-SWE suite through the real OpenCode with the plug-in in each mode,
          score every focus patch, and write results.jsonl, report.md and report.html.
          --agent scripted replays the suite's agent.json whatever it is shown (pipeline tests);
          faithful writes what the requirements in view imply (the suite's tasks/*/faithful/).
          --regime: the scripted model's window: roomy (200k, never compacts, the default) or
          tight (16k context, 8k output: OpenCode compacts, and the summary keeps only the
          latest request). Rerunning with
          the same --out skips finished sessions; Ctrl-C leaves consistent files.
          --env docker: each session in a container of its focus task's image (the task's
          "image", else SWE-bench's name for the instance, or --image), scored in a fresh one.
          --shard i/n: only the i-th of n deterministic shares of the session runs,
          balanced by their number of requests (run the n shards anywhere, then merge).
  bench merge <run dirs...> --out <dir>
          Combine the shards of one run into one results.jsonl and report; refuses
          runs of different suites or settings.
  bench score <run dir>           Re-score every session of a run from its focus checkout.
  bench report <run dir> [--cache-read-price 0.1]   (also: opencode-rcm report <run dir>)
          Rebuild report.md and report.html (charts, no network) from results.jsonl; cached
          input tokens are priced at the given share of an uncached one.
  bench make-sessions --suite <dir> [--interruptions 4] [--seed 1]
          Build sessions.jsonl from the suite's tasks as the paper does.
  bench import-swebench --instances <file.jsonl> [--stages <file.jsonl>] --out <suite dir>
          [--bundles <dir>] [--repo-url 'https://github.com/{repo}.git'] [--test-cmd '... {tests}']
          Turn SWE-bench instances (their published fields) into a suite, a folder per task;
          stages: {instance_id, stages: [{id, request}]} per line (default: the problem
          statement as the one stage). Then: bench make-sessions --suite <suite dir>.
  bench export-predictions <run dir> [--mode M] [--condition C]
          Write <run>/predictions/<mode>.<condition>.jsonl for SWE-bench's run_evaluation.
  bench import-reports <run dir> <harness logs dir>
          Read the harness's report.json files back into results.jsonl and report.md.`;

/** A mistake in the command line: the caller prints it with the usage, exit code 2. */
export class BenchUsageError extends UsageError {
  override name = "BenchUsageError";
}

/** `opencode-rcm bench ...`: returns the text to print on stdout. */
export async function benchCommand(
  args: readonly string[],
  io: { signal: AbortSignal; progress: (event: BenchProgress) => void },
): Promise<string> {
  const [sub, ...rest] = args;
  if (sub === "run") return run(rest, io);
  if (sub === "mini") return mini(rest, io);
  if (sub === "score") return `${await rescoreRun(resolve(single(rest, "bench score")))}\n`;
  if (sub === "report") return reportCommand(rest);
  if (sub === "make-sessions") return makeSessionsCommand(rest);
  if (sub === "import-swebench") return importSwebenchCommand(rest);
  if (sub === "export-predictions") return exportPredictionsCommand(rest);
  if (sub === "import-reports") return importReportsCommand(rest);
  if (sub === "merge") return mergeCommand(rest);
  throw new BenchUsageError(sub === undefined ? "bench needs a subcommand" : `unknown bench subcommand "${sub}"`);
}

/** `bench report <run> [--cache-read-price R]` (also `opencode-rcm report`): rewrites report.md and report.html. */
async function reportCommand(args: readonly string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args: [...args], options: { "cache-read-price": { type: "string" } }, allowPositionals: true, strict: true });
  const price = values["cache-read-price"];
  const cacheReadPrice = price === undefined ? undefined : Number(price);
  if (cacheReadPrice !== undefined && !(Number.isFinite(cacheReadPrice) && cacheReadPrice >= 0 && cacheReadPrice <= 1)) {
    throw new BenchUsageError(`--cache-read-price must be a number in [0, 1] (a cached token's price against an uncached one), got "${price}"`);
  }
  const written = await rebuildReport(resolve(single(positionals, "report")), { cacheReadPrice });
  return `${written.markdown}\n${written.html}\n`;
}

/** The README's main command: the bundled mini suite, offline, in every regime; prints the gap report. */
async function mini(args: readonly string[], io: { signal: AbortSignal; progress: (event: BenchProgress) => void }): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      agent: { type: "string", default: "faithful" },
      regimes: { type: "string" },
      modes: { type: "string", default: MODES.join(",") },
      sessions: { type: "string", default: String(MINI_SESSIONS) },
      // Sessions wait on the model, git and pytest more than on the CPU: 3 beat 2 on a 2-core machine (7m43s vs 9m50s).
      concurrency: { type: "string", default: "3" },
      out: { type: "string", default: join("runs", "switch-mini") },
      model: { type: "string" },
      "provider-config": { type: "string" },
    },
    strict: true,
  });
  const suite = join(packageRoot(), "fixtures", "switch-mini");
  const common = ["--suite", suite, "--modes", values.modes, "--concurrency", values.concurrency, "--sessions", values.sessions];
  if (values.model !== undefined) {
    if (values.regimes !== undefined) throw new BenchUsageError("--regimes needs the scripted agents (a provider's model has its own window)");
    const provider = values["provider-config"] === undefined ? [] : ["--provider-config", values["provider-config"]];
    const summary = await run([...common, "--out", values.out, "--model", values.model, ...provider], io);
    return `${await readFile(resolve(values.out, "report.md"), "utf8")}\n${summary}`;
  }
  const agent = agentChoice(values.agent, undefined, undefined, undefined);
  if (agent.kind === "model") throw new BenchUsageError("--agent must be scripted or faithful");
  const regimes = (values.regimes ?? REGIME_NAMES.join(",")).split(",").map((regime) => regime.trim());
  for (const regime of regimes) if (!isRegime(regime)) throw new BenchUsageError(`--regimes: unknown regime "${regime}" (one of ${REGIME_NAMES.join(", ")})`);
  const runs: RegimeRun[] = [];
  const summaries: string[] = [];
  for (const regime of regimes.filter(isRegime)) {
    const out = join(values.out, regime);
    summaries.push(await run([...common, "--out", out, "--agent", values.agent, "--regime", regime], io));
    if (io.signal.aborted) return `${summaries.join("")}interrupted; rerun the same command to resume.\n`;
    runs.push({ regime, description: REGIMES[regime].description, dir: regime, results: await readResults(runFiles(resolve(out)).results) });
  }
  const setting = describeScriptedAgent(agent.kind);
  const written = await writeRegimesReport(resolve(values.out), runs, { title: "Switch-SWE offline benchmark: switch-mini", setting });
  return `${await readFile(written.markdown, "utf8")}\n${summaries.join("")}combined report: ${written.markdown}\n                 ${written.html} (open in a browser)\n`;
}

async function run(args: readonly string[], io: { signal: AbortSignal; progress: (event: BenchProgress) => void }): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      suite: { type: "string" },
      out: { type: "string" },
      agent: { type: "string" },
      model: { type: "string" },
      "provider-config": { type: "string" },
      regime: { type: "string" },
      modes: { type: "string", default: "native,router,full" },
      sessions: { type: "string" },
      concurrency: { type: "string", default: "1" },
      seed: { type: "string", default: "1" },
      "budget-s": { type: "string", default: "900" },
      "max-continuations": { type: "string", default: "3" },
      "test-timeout-s": { type: "string", default: "900" },
      env: { type: "string", default: "local" },
      image: { type: "string" },
      shard: { type: "string" },
    },
    strict: true,
  });
  if (!values.suite) throw new BenchUsageError("bench run needs --suite <dir>");
  if (values.env !== "local" && values.env !== "docker") throw new BenchUsageError(`--env must be local or docker, not "${values.env}"`);
  if (values.image !== undefined && values.env !== "docker") throw new BenchUsageError("--image needs --env docker");
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (typeof shard === "string") throw new BenchUsageError(shard);
  if (!values.out) throw new BenchUsageError("bench run needs --out <dir>");
  const modes = values.modes.split(",").map((mode) => mode.trim());
  for (const mode of modes) if (!(MODES as readonly string[]).includes(mode)) throw new BenchUsageError(`--modes: unknown mode "${mode}" (one of ${MODES.join(", ")})`);
  const agent = agentChoice(values.agent, values.model, values["provider-config"], values.regime);
  const summary = await runBench({
    suiteDir: values.suite,
    outDir: values.out,
    modes: modes as Mode[],
    agent,
    sessions: values.sessions === undefined ? undefined : count("--sessions", values.sessions, 1),
    concurrency: count("--concurrency", values.concurrency, 1),
    seed: count("--seed", values.seed, 0),
    budgetMs: count("--budget-s", values["budget-s"], 1) * 1000,
    maxContinuations: count("--max-continuations", values["max-continuations"], 0),
    testTimeoutMs: count("--test-timeout-s", values["test-timeout-s"], 1) * 1000,
    signal: io.signal,
    onProgress: io.progress,
    env: values.env,
    image: values.image,
    shard,
  });
  const state = summary.interrupted ? "interrupted; rerun the same command to resume" : "done";
  return `${summary.ran} session runs now, ${summary.skipped} already done; ${state}.\nresults: ${resolve(values.out, "results.jsonl")}\nreport:  ${resolve(values.out, "report.md")}\n         ${resolve(values.out, "report.html")} (open in a browser)\n`;
}

function agentChoice(agent: string | undefined, model: string | undefined, providerConfig: string | undefined, regime: string | undefined): AgentChoice {
  if (agent !== undefined && model !== undefined) throw new BenchUsageError("give --agent scripted|faithful or --model provider/model, not both");
  if (regime !== undefined && agent === undefined) throw new BenchUsageError("--regime needs --agent scripted or faithful (a provider's model has its own window)");
  if (regime !== undefined && !isRegime(regime)) throw new BenchUsageError(`--regime must be one of ${REGIME_NAMES.join(", ")}, not "${regime}"`);
  if (agent === "scripted" || agent === "faithful") return regime === undefined ? { kind: agent } : { kind: agent, regime };
  if (agent !== undefined) throw new BenchUsageError(`--agent must be scripted or faithful, not "${agent}"`);
  if (model === undefined) throw new BenchUsageError("bench run needs --agent scripted|faithful or --model provider/model");
  if (!/^[^/\s]+\/\S+$/.test(model)) throw new BenchUsageError(`--model must be provider/model, got "${model}"`);
  return { kind: "model", model, ...(providerConfig ? { providerConfig: resolve(providerConfig) } : {}) };
}

async function makeSessionsCommand(args: readonly string[]): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: { suite: { type: "string" }, interruptions: { type: "string", default: "4" }, seed: { type: "string", default: "1" } },
    strict: true,
  });
  if (!values.suite) throw new BenchUsageError("bench make-sessions needs --suite <dir>");
  const tasks = await loadTasks(resolve(values.suite));
  const { sessions, warnings } = makeSessions(tasks, {
    interruptions: count("--interruptions", values.interruptions, 0),
    seed: count("--seed", values.seed, 0),
  });
  const file = await writeSessions(resolve(values.suite), sessions);
  return `${[...warnings.map((warning) => `warning: ${warning}`), `${sessions.length} sessions written to ${file}`].join("\n")}\n`;
}

async function importSwebenchCommand(args: readonly string[]): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      instances: { type: "string" },
      stages: { type: "string" },
      out: { type: "string" },
      bundles: { type: "string" },
      "repo-url": { type: "string" },
      "test-cmd": { type: "string" },
      name: { type: "string" },
    },
    strict: true,
  });
  if (!values.instances || !values.out) throw new BenchUsageError("bench import-swebench needs --instances <file.jsonl> and --out <suite dir>");
  const result = await importSwebench({
    instances: values.instances,
    stages: values.stages,
    out: values.out,
    bundles: values.bundles,
    repoUrl: values["repo-url"],
    testCmd: values["test-cmd"],
    name: values.name,
  });
  return `${result.tasks} tasks (${result.staged} with stages) written to ${result.suite}\nnext: opencode-rcm bench make-sessions --suite ${result.suite}\n`;
}

async function exportPredictionsCommand(args: readonly string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args: [...args], options: { mode: { type: "string" }, condition: { type: "string" } }, allowPositionals: true, strict: true });
  const run = single(positionals, "bench export-predictions");
  if (values.mode !== undefined && !(MODES as readonly string[]).includes(values.mode)) throw new BenchUsageError(`--mode must be one of ${MODES.join(", ")}, not "${values.mode}"`);
  if (values.condition !== undefined && !["uninterrupted", "switched"].includes(values.condition)) throw new BenchUsageError(`--condition must be uninterrupted or switched, not "${values.condition}"`);
  const files = await exportPredictions({ run, mode: values.mode, condition: values.condition });
  return `${files.join("\n")}\n`;
}

async function importReportsCommand(args: readonly string[]): Promise<string> {
  const [run, reports, ...extra] = args;
  if (run === undefined || reports === undefined || extra.length > 0) throw new BenchUsageError("bench import-reports needs <run dir> <harness logs dir>");
  const summary = await importReports({ run, reports });
  const unmatched = summary.unmatched.map((file) => `warning: no result of this run for ${file}`);
  return `${[...unmatched, `${summary.updated} results updated from ${summary.reports} report.json files; ${join(resolve(run), "report.md")} rebuilt`].join("\n")}\n`;
}

async function mergeCommand(args: readonly string[]): Promise<string> {
  const { values, positionals } = parseArgs({ args: [...args], options: { out: { type: "string" } }, allowPositionals: true, strict: true });
  if (!values.out || positionals.length === 0) throw new BenchUsageError("bench merge needs <run dirs...> --out <dir>");
  const merged = await mergeRuns({ runs: positionals, out: values.out });
  return `${merged.results} session runs merged into ${merged.file}\nreport:  ${join(resolve(values.out), "report.md")}\n`;
}

function single(args: readonly string[], command: string): string {
  const [dir, ...extra] = args;
  if (dir === undefined || extra.length > 0) throw new BenchUsageError(`${command} takes exactly one run directory`);
  return dir;
}

function count(option: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new BenchUsageError(`${option} must be an integer >= ${min}, got "${text}"`);
  return value;
}
