// `bench run` and `bench mini`: running a suite through OpenCode.
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RcmError } from "../kit/errors/rcm-error.js";
import { packageRoot } from "../kit/package-root.js";
import { type AgentChoice, SCRIPTED_AGENTS } from "../lab/bench/drive/agent-model.js";
import { BENCH_HOSTS, type BenchHost, DEFAULT_BENCH_HOST } from "../lab/bench/drive/bench-host.js";
import { describeScriptedAgent, reportHost } from "../lab/bench/drive/describe-agent.js";
import { REGIME_NAMES, type Regime, regimeWindow } from "../lab/bench/drive/regimes.js";
import { planBench } from "../lab/bench/plan-bench.js";
import { type RegimeRun, writeRegimesReport } from "../lab/bench/report/regimes-report.js";
import { BENCH_ENVS, type BenchEnv, runBench } from "../lab/bench/run-bench.js";
import { readResults } from "../lab/bench/run-dir/read-results.js";
import { runFiles } from "../lab/bench/run-dir/run-files.js";
import { diskUsage } from "../lab/bench/run-dir/tidy-run-dir.js";
import { parseShard, type Shard } from "../lab/bench/shard.js";
import { CONDITIONS, type Condition, DEFAULT_CONDITIONS } from "../lab/bench/suite/schema.js";
import { MODES, type Mode } from "../plugin/config/options-schema.js";
import { type BenchIo, withBenchIo } from "./bench-io.js";
import { type ArgSpecs, defineCli, mustBeEither, mustBeOneOf, type Parsed, unknownItem } from "./declare.js";

const RUN_ARGS = {
  suite: { type: "string", required: true, valueHint: "dir", description: "the Switch-SWE suite" },
  out: { type: "string", required: true, valueHint: "dir", description: "the run directory; rerunning with the same --out skips finished sessions" },
  env: {
    type: "enum",
    options: BENCH_ENVS,
    default: "local",
    description:
      "docker: each session in a container of its focus task's image (the task's \"image\", else SWE-bench's name for the instance, or --image), scored in a fresh one",
    invalid: mustBeEither,
  },
  image: {
    type: "string",
    valueHint: "name, {instance_id} {repo}",
    description: "with --env docker: the image template; default: the task's image, else SWE-bench's name for it",
  },
  shard: {
    type: "string",
    valueHint: "i/n",
    description: "only the i-th of n deterministic shares of the session runs, balanced by their number of requests (run the n shards anywhere, then merge)",
  },
  modes: {
    type: "list",
    options: MODES,
    default: "native,router,full",
    description:
      "the plug-in's modes to run (default: the paper's three; add memory for the memory-only ablation, which costs a model one more run per session)",
    invalid: unknownItem("mode"),
  },
  conditions: {
    type: "list",
    options: CONDITIONS,
    default: DEFAULT_CONDITIONS.join(","),
    description:
      "the conditions to run: the suite's uninterrupted and switched sessions, and resumed (made from each switched one: the focus's first stages, the interruptions and the focus's last stage each in a new OpenCode session of the same server)",
    invalid: unknownItem("condition"),
  },
  agent: {
    type: "enum",
    options: SCRIPTED_AGENTS,
    description:
      "scripted replays the suite's agent.json whatever it is shown (pipeline tests); faithful writes what the requirements in view imply (the suite's tasks/*/faithful/)",
    invalid: mustBeEither,
  },
  regime: {
    type: "enum",
    options: REGIME_NAMES,
    description:
      "with --agent: the scripted model's window: roomy (200k, never compacts, the default) or tight (16k context, 8k output: OpenCode compacts, and the summary keeps only the latest request)",
    invalid: mustBeOneOf("not"),
  },
  model: { type: "string", valueHint: "provider/model", description: "instead of --agent: any OpenCode provider/model" },
  "provider-config": { type: "string", valueHint: "file", description: 'with --model: the providers, as opencode.json\'s {"provider": {...}}' },
  "pass-env": {
    type: "string",
    valueHint: "NAME,NAME",
    description: "environment variables the OpenCode servers get (a provider's API key): they see nothing else of this environment but RCM_*",
  },
  host: {
    type: "enum",
    options: BENCH_HOSTS,
    default: DEFAULT_BENCH_HOST,
    description: "which OpenCode runs the sessions: opencode-1 is 1.18 (opencode-ai), opencode-2 the pinned 2.0.15 (scripted agents only, --env local)",
    invalid: mustBeEither,
  },
  "dry-run": { type: "boolean", description: "print what the run would do (sessions, modes, requests, model calls, the run directory) and start nothing" },
  keep: {
    type: "boolean",
    description: "keep the scratch: each session's checkouts and the OpenCode homes (by default removed once scored; the patches, histories and logs stay)",
  },
  sessions: { type: "number", integer: true, min: 1, description: "run only the first N sessions of the suite" },
  concurrency: {
    type: "number",
    integer: true,
    min: 1,
    default: 1,
    description: "sessions at once (default 1: a provider's rate limit, not this machine, is the ceiling; see docs/benchmark-runs.md)",
  },
  seed: { type: "number", integer: true, min: 0, default: 1, description: "the seed" },
  "budget-s": { type: "number", integer: true, min: 1, default: 900, description: "per request, in seconds, before it is aborted and continued" },
  "max-continuations": { type: "number", integer: true, min: 0, default: 3, description: "continuations of a request after its budget runs out" },
  "test-timeout-s": { type: "number", integer: true, min: 1, default: 900, description: "per test run while scoring, in seconds" },
} as const satisfies ArgSpecs;

/** What `bench run` runs, checked (`bench mini` gives it directly). */
interface RunOptions {
  suite: string;
  out: string;
  modes: Mode[];
  conditions: Condition[];
  agent: AgentChoice;
  sessions?: number | undefined;
  concurrency: number;
  seed: number;
  budgetS: number;
  maxContinuations: number;
  testTimeoutS: number;
  env: BenchEnv;
  image?: string | undefined;
  shard?: Shard | undefined;
  passEnv: readonly string[];
  dryRun: boolean;
  keep: boolean;
  host: BenchHost;
}

/** `bench run` with its defaults, for `bench mini`. */
const RUN_DEFAULTS = {
  seed: RUN_ARGS.seed.default,
  budgetS: RUN_ARGS["budget-s"].default,
  maxContinuations: RUN_ARGS["max-continuations"].default,
  testTimeoutS: RUN_ARGS["test-timeout-s"].default,
  env: RUN_ARGS.env.default,
  passEnv: [],
  dryRun: false,
  keep: false,
} as const;

async function runSuite(options: RunOptions, io: BenchIo): Promise<string> {
  const bench = {
    suiteDir: options.suite,
    outDir: options.out,
    modes: options.modes,
    conditions: options.conditions,
    agent: options.agent,
    sessions: options.sessions,
    concurrency: options.concurrency,
    seed: options.seed,
    budgetMs: options.budgetS * 1000,
    maxContinuations: options.maxContinuations,
    testTimeoutMs: options.testTimeoutS * 1000,
    signal: io.signal,
    onProgress: io.progress,
    env: options.env,
    image: options.image,
    shard: options.shard,
    passEnv: options.passEnv,
    keep: options.keep,
    host: options.host,
    environment: io.env,
  };
  if (options.dryRun) return planBench(bench);
  const summary = await runBench(bench);
  const state = summary.interrupted ? "interrupted; rerun the same command to resume" : "done";
  const out = options.out;
  const added = summary.added.length > 0 ? `This run added ${summary.added.join(" and ")} to the experiment (run.json: extended).\n` : "";
  const kept = options.keep ? "scratch kept (--keep)" : "scratch removed; --keep keeps the checkouts and OpenCode homes";
  return `${added}${summary.ran} session runs now, ${summary.skipped} already done; ${state}.\nwritten: ${megabytes(summary.bytes)} in ${resolve(out)} (${kept})\nresults: ${resolve(out, "results.jsonl")}\nreport:  ${resolve(out, "report.md")}\n         ${resolve(out, "report.html")} (open in a browser)\n`;
}

/** The agent of `--agent` (and `--regime`) or `--model` (and `--provider-config`): exactly one of the two. */
function agentChoice(
  agent: AgentChoice["kind"] | undefined,
  model: string | undefined,
  providerConfig: string | undefined,
  regime: Regime | undefined,
): AgentChoice {
  if (agent !== undefined && model !== undefined) throw new RcmError("usage", "give --agent scripted|faithful or --model provider/model, not both");
  if (regime !== undefined && agent === undefined)
    throw new RcmError("usage", "--regime needs --agent scripted or faithful (a provider's model has its own window)");
  if (agent === "scripted" || agent === "faithful") return regime === undefined ? { kind: agent } : { kind: agent, regime };
  if (model === undefined) throw new RcmError("usage", "bench run needs --agent scripted|faithful or --model provider/model");
  if (!/^[^/\s]+\/\S+$/.test(model)) throw new RcmError("usage", `--model must be provider/model, got "${model}"`);
  return { kind: "model", model, ...(providerConfig ? { providerConfig: resolve(providerConfig) } : {}) };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** `--pass-env A,B`: the names. */
function passEnvNames(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

function runOptions(args: Parsed<typeof RUN_ARGS>): RunOptions {
  if (args.image !== undefined && args.env !== "docker") throw new RcmError("usage", "--image needs --env docker");
  const shard = args.shard === undefined ? undefined : parseShard(args.shard);
  if (typeof shard === "string") throw new RcmError("usage", shard);
  return {
    suite: args.suite,
    out: args.out,
    modes: args.modes,
    conditions: args.conditions,
    agent: agentChoice(args.agent, args.model, args["provider-config"], args.regime),
    sessions: args.sessions,
    concurrency: args.concurrency,
    seed: args.seed,
    budgetS: args["budget-s"],
    maxContinuations: args["max-continuations"],
    testTimeoutS: args["test-timeout-s"],
    env: args.env,
    image: args.image,
    shard,
    passEnv: passEnvNames(args["pass-env"]),
    dryRun: args["dry-run"],
    keep: args.keep,
    host: args.host,
  };
}

export const run = defineCli({
  name: "run",
  description: "Run a Switch-SWE suite through the real OpenCode with the plug-in in each mode.",
  details: `Scores every focus patch, and writes results.jsonl, report.md and report.html. The agent: --agent
scripted|faithful [--regime roomy|tight], or --model provider/model [--provider-config <file>].
Rerunning with the same --out skips finished sessions; Ctrl-C leaves consistent files.`,
  args: RUN_ARGS,
  run: (args, context) => withBenchIo(context, (io) => runSuite(runOptions(args), io)),
});

/** `bench mini`'s sessions: the first repository's five tasks, each uninterrupted and switched (and resumed, made from the switched ones). */
const MINI_SESSIONS = 10;

export const mini = defineCli({
  name: "mini",
  description: "The offline benchmark on the bundled mini suite (fixtures/switch-mini), each mode in each regime.",
  details: `A run per regime in <out>/<regime>, with the faithful scripted agent; prints native's switched gap,
what each mode recovers and why sessions failed (<out>/report.md, report.html). Scripted agent:
mechanism, not model quality. --sessions 30: the whole suite (about 3x longer). --model: one run
with that model instead.`,
  args: {
    agent: { ...RUN_ARGS.agent, default: "faithful" },
    regimes: { type: "list", options: REGIME_NAMES, description: "the scripted model's windows (default: all)", invalid: unknownItem("regime") },
    modes: {
      ...RUN_ARGS.modes,
      default: MODES.join(","),
      description: "the plug-in's modes to run (default: all four, the router-against-memory ablation: the scripted agent costs nothing)",
    },
    conditions: {
      ...RUN_ARGS.conditions,
      default: CONDITIONS.join(","),
      description:
        "the conditions to run (default: all three: each focus uninterrupted, switched, and resumed, its last stage in a new OpenCode session after the interruptions ran in another)",
    },
    sessions: { ...RUN_ARGS.sessions, default: MINI_SESSIONS },
    // Sessions wait on the model, git and pytest more than on the CPU: 3 beat 2 on a 2-core machine (7m43s vs 9m50s).
    concurrency: {
      ...RUN_ARGS.concurrency,
      default: 3,
      description: "sessions at once (default 3: the scripted agent has no rate limit, and 3 beat 2 on a 2-core machine)",
    },
    out: { type: "string", valueHint: "dir", default: join("runs", "switch-mini"), description: "the runs and the combined report" },
    model: { ...RUN_ARGS.model, description: "one run with that model instead of the scripted agents" },
    "provider-config": RUN_ARGS["provider-config"],
    "pass-env": RUN_ARGS["pass-env"],
    "dry-run": RUN_ARGS["dry-run"],
    keep: RUN_ARGS.keep,
    host: RUN_ARGS.host,
  },
  run: (args, context) =>
    withBenchIo(context, async (io) => {
      const common = {
        suite: join(packageRoot(), "fixtures", "switch-mini"),
        modes: args.modes,
        conditions: args.conditions,
        concurrency: args.concurrency,
        sessions: args.sessions,
        ...RUN_DEFAULTS,
        passEnv: passEnvNames(args["pass-env"]),
        dryRun: args["dry-run"],
        keep: args.keep,
        host: args.host,
      };
      if (args.model !== undefined) {
        if (args.regimes !== undefined) throw new RcmError("usage", "--regimes needs the scripted agents (a provider's model has its own window)");
        const summary = await runSuite({ ...common, out: args.out, agent: agentChoice(undefined, args.model, args["provider-config"], undefined) }, io);
        return common.dryRun ? summary : `${await readFile(resolve(args.out, "report.md"), "utf8")}\n${summary}`;
      }
      const runs: RegimeRun[] = [];
      const summaries: string[] = [];
      for (const regime of args.regimes ?? REGIME_NAMES) {
        const out = join(args.out, regime);
        summaries.push(await runSuite({ ...common, out, agent: { kind: args.agent, regime } }, io));
        if (common.dryRun) continue;
        if (io.signal.aborted) return `${summaries.join("")}interrupted; rerun the same command to resume.\n`;
        runs.push({
          regime,
          description: regimeWindow(regime, args.host).description,
          dir: regime,
          results: await readResults(runFiles(resolve(out)).results),
        });
      }
      if (common.dryRun) return summaries.join("\n");
      const setting = describeScriptedAgent(args.agent);
      const host = reportHost(runs.flatMap((run) => run.results));
      const written = await writeRegimesReport(resolve(args.out), runs, { title: "Switch-SWE offline benchmark: switch-mini", setting, host });
      const total = `in all: ${megabytes(await diskUsage(resolve(args.out)))} in ${resolve(args.out)}\n`;
      return `${await readFile(written.markdown, "utf8")}\n${summaries.join("")}combined report: ${written.markdown}\n                 ${written.html} (open in a browser)\n${total}`;
    }),
});
