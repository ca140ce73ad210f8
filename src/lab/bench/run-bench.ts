import { existsSync } from "node:fs";
import { appendFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { builtEntry, packageRoot } from "../../kit/package-root.js";
import type { Mode } from "../../plugin/config/options-schema.js";
import { createIsolatedHome } from "../harness/isolated-home.js";
import { opencode2Binary } from "../harness/opencode-2-server.js";
import { opencodeBinary } from "../harness/opencode-binary.js";
import type { PluginEntry } from "../harness/opencode-config.js";
import { startOpencodeServer } from "../harness/opencode-server.js";
import { cheapSuiteProblems } from "./check/cheap-suite-problems.js";
import { runStoppers, suiteProblemsError } from "./check/suite-problem.js";
import { prepareCheckouts, repoSource } from "./checkout/prepare-checkouts.js";
import { type AgentChoice, modelOnOpencode2, startAgentModel } from "./drive/agent-model.js";
import { type BenchHost, DEFAULT_BENCH_HOST, hostVersion } from "./drive/bench-host.js";
import { reportSetting } from "./drive/describe-agent.js";
import { type HostServer, opencode1Host } from "./drive/host-server.js";
import { checkModelProvider } from "./drive/model-provider.js";
import { startOpencode2Host } from "./drive/opencode-2-host.js";
import { passedEnv } from "./drive/passed-env.js";
import { pluginConfidenceThreshold, pluginEnv } from "./drive/plugin-env.js";
import { pluginVersion } from "./drive/plugin-version.js";
import { DEFAULT_REGIME } from "./drive/regimes.js";
import { runSession, type SessionRun } from "./drive/run-session.js";
import { checkImages, LOCAL, type SessionPlace, withSessionContainer } from "./env/session-place.js";
import { openDecisionLog, type SessionDecisionLog } from "./metrics/focus-write.js";
import { readPluginStates } from "./metrics/plugin-state.js";
import { type MetricField, measureSession } from "./metrics/registry.js";
import { openRequestLog, type SessionRequestLog } from "./metrics/request-log.js";
import { writeReports } from "./report/write-reports.js";
import type { RunSetting } from "./run-dir/experiment.js";
import { type ExperimentRequest, openExperiment } from "./run-dir/open-experiment.js";
import { readResults } from "./run-dir/read-results.js";
import { inSchemaOrder, type ResultLine, resultKey } from "./run-dir/result-line.js";
import { runFiles } from "./run-dir/run-files.js";
import { diskUsage, tidyRunDir } from "./run-dir/tidy-run-dir.js";
import { failureClass, focusPatch } from "./score/index.js";
import { type Shard, shardRuns } from "./shard.js";
import { loadSuite } from "./suite/load-suite.js";
import { inConditionOrder, runSpecs } from "./suite/resumed-sessions.js";
import { type Condition, DEFAULT_CONDITIONS, type SessionSpec, type Suite } from "./suite/schema.js";
import { suiteHash } from "./suite/suite-hash.js";

export interface BenchRunOptions {
  suiteDir: string;
  modes: readonly Mode[];
  /** Which conditions to run (default DEFAULT_CONDITIONS: the suite's sessions as listed); `resumed` adds each switched session's resumed twin. */
  conditions?: readonly Condition[] | undefined;
  agent: AgentChoice;
  outDir: string;
  /** Run only the first N sessions of the suite. */
  sessions?: number | undefined;
  concurrency: number;
  seed: number;
  /** Per request, before it is aborted and continued. */
  budgetMs: number;
  maxContinuations: number;
  /** Per test run while scoring. */
  testTimeoutMs: number;
  signal?: AbortSignal | undefined;
  onProgress?: ((event: BenchProgress) => void) | undefined;
  /** Where sessions and scoring run: here (`local`, the default) or in a container per session (`docker`). */
  env?: BenchEnv | undefined;
  /** Run only this shard's share of the session runs (`bench merge` puts the shards together). */
  shard?: Shard | undefined;
  /** With `docker`: the image template (`{instance_id}`, `{repo}`); default: the task's image, else SWE-bench's name for it. */
  image?: string | undefined;
  /** Names of environment variables (a provider's key) the OpenCode servers get: nothing else of this environment reaches them. */
  passEnv?: readonly string[] | undefined;
  /** Keep the scratch: each session's checkouts and the OpenCode homes (`run-dir/tidy-run-dir.ts`). */
  keep?: boolean | undefined;
  /** Which OpenCode runs the sessions (`drive/bench-host.ts`); default OpenCode 1.18. */
  host?: BenchHost | undefined;
  /** The environment the run reads (OPENCODE_BIN, the plug-in's RCM_* settings, --pass-env's variables); default: this process's. */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
}

/** Where sessions run: here, or each in a container of its task's image. */
export const BENCH_ENVS = ["local", "docker"] as const;
export type BenchEnv = (typeof BENCH_ENVS)[number];

export interface BenchProgress {
  done: number;
  total: number;
  mode: Mode;
  session: string;
  /** e.g. "request 3/7 slug/s2", "scoring", "done: resolved". */
  activity: string;
}

export interface BenchRunSummary {
  results: ResultLine[];
  ran: number;
  skipped: number;
  interrupted: boolean;
  /** What this run added to an existing experiment ("modes memory"), recorded in run.json. */
  added: string[];
  /** Bytes the run directory holds once its scratch is gone. */
  bytes: number;
}

/** The paper's fallback: below the threshold every task's history stays (not the plug-in's `candidates`). */
const RUN_FALLBACK = "full";

/**
 * Runs a suite's sessions through the real OpenCode, one server per mode with the plug-in in
 * that mode, scores each focus patch and appends a line to `results.jsonl`. Resumable: a
 * session already in `results.jsonl` for a mode is skipped. An interrupted session writes
 * no line, so the files stay consistent.
 */
export async function runBench(options: BenchRunOptions): Promise<BenchRunSummary> {
  const prepared = await prepareRun(options, { askHostVersion: true });
  const { outDir } = prepared;
  // What can fail before the first session is checked before the run directory exists.
  const host = options.host ?? DEFAULT_BENCH_HOST;
  const binary = host === "opencode-2" ? opencode2Binary(options.environment) : opencodeBinary(options.environment);
  const created = !existsSync(outDir);
  await mkdir(runFiles(outDir).tmp, { recursive: true });
  try {
    const opened = await openExperiment(outDir, prepared.request);
    const summary = await runModes({ ...options, ...prepared, modes: options.modes, binary });
    await tidyRunDir(outDir, { keep: options.keep ?? false });
    return { ...summary, added: opened.added, bytes: await diskUsage(outDir) };
  } catch (error) {
    // A run that failed before any result leaves no half-made folder behind (one it did not create stays).
    if (created && !existsSync(runFiles(outDir).results)) await rm(outDir, { recursive: true, force: true });
    throw error;
  }
}

/** What a run is, settled before anything starts: the suite, its sessions, and the experiment's setting. */
export interface PreparedRun {
  outDir: string;
  suite: Suite;
  specs: SessionSpec[];
  setting: RunSetting;
  request: ExperimentRequest;
  /** The plug-in's confidence threshold (the setting's). */
  confidenceThreshold: number;
  /** The environment variables the OpenCode servers get besides their home's. */
  serverEnv: Record<string, string>;
}

/** `askHostVersion`: run the host's binary for its version (the run does; a dry run starts nothing). */
export async function prepareRun(options: BenchRunOptions, { askHostVersion = false } = {}): Promise<PreparedRun> {
  const outDir = resolve(options.outDir);
  const host = options.host ?? DEFAULT_BENCH_HOST;
  if (host === "opencode-2" && options.agent.kind === "model") throw modelOnOpencode2();
  if (host === "opencode-2" && options.env === "docker")
    throw new RcmError("usage", "--host opencode-2 runs sessions here only (--env local): the session containers start OpenCode 1.18");
  const suite = await loadSuite(resolve(options.suiteDir));
  const conditions = inConditionOrder(options.conditions ?? DEFAULT_CONDITIONS);
  const specs = runSpecs(suite.sessions, { count: options.sessions, conditions });
  const sessionCount = options.sessions === undefined ? suite.sessions.length : Math.min(options.sessions, suite.sessions.length);
  await refuseFailingSuite(suite, options.agent.kind);
  await checkModelProvider(options.agent);
  const forwarded = pluginEnv(options.environment ?? process.env);
  const setting: RunSetting = {
    suite: suite.meta.name,
    suite_sha256: await suiteHash(suite.dir),
    agent: options.agent.kind,
    ...(options.agent.kind === "model" ? { model: options.agent.model } : { regime: options.agent.regime ?? DEFAULT_REGIME }),
    seed: options.seed,
    budget_ms: options.budgetMs,
    max_continuations: options.maxContinuations,
    test_timeout_ms: options.testTimeoutMs,
    confidence_threshold: pluginConfidenceThreshold(forwarded),
    fallback: RUN_FALLBACK,
    plugin_version: await pluginVersion(),
    env: options.env ?? "local",
    ...(options.image === undefined ? {} : { image: options.image }),
    host,
    ...(askHostVersion ? { host_version: await hostVersion(host, options.environment) } : {}),
  };
  const shard = options.shard;
  const request: ExperimentRequest = {
    suiteDir: suite.dir,
    setting,
    agent: options.agent,
    modes: options.modes,
    conditions,
    sessions: sessionCount,
    shard: shard ? `${shard.index}/${shard.count}` : undefined,
    runsPlanned: (modes, sessions, asked) => {
      const planned = runSpecs(suite.sessions, { count: sessions, conditions: asked });
      return shard ? shardRuns(planned, modes, shard).size : planned.length * modes.length;
    },
  };
  const serverEnv = { ...forwarded, ...passedEnv(options.passEnv ?? [], options.environment) };
  return { outDir, suite, specs, setting, request, confidenceThreshold: setting.confidence_threshold, serverEnv };
}

/**
 * `bench check`'s cheap part for this agent (a model needs no agent files): a suite whose
 * ground truth is wrong would score every session wrongly.
 */
async function refuseFailingSuite(suite: Suite, agent: AgentChoice["kind"]): Promise<void> {
  // An unused agent.json entry (a playbook written for a larger suite) stops nothing.
  const problems = runStoppers(await cheapSuiteProblems(suite, { agent }));
  if (problems.length > 0)
    throw suiteProblemsError(problems, `nothing was run: \`opencode-rcm bench check ${suite.dir}\` lists these and runs each task's tests too`);
}

async function runModes(options: BenchRunOptions & PreparedRun & { binary: string }): Promise<BenchRunSummary> {
  const { outDir, suite, specs } = options;
  const files = runFiles(outDir);
  if (options.env === "docker") await checkImages(suite, specs, options.image);
  const done = new Set((await readResults(files.results)).map(resultKey));
  const mine = options.shard ? shardRuns(specs, options.modes, options.shard) : undefined;
  const total = mine?.size ?? specs.length * options.modes.length;
  let finished = [...done].length;
  let ran = 0;
  let skipped = 0;
  for (const mode of options.modes) {
    const ours = mine ? specs.filter((spec) => mine.has(resultKey({ session_id: spec.session_id, mode }))) : specs;
    const pending = ours.filter((spec) => !done.has(resultKey({ session_id: spec.session_id, mode })));
    skipped += ours.length - pending.length;
    if (pending.length === 0 || options.signal?.aborted) continue;
    const server = {
      suite,
      mode,
      outDir,
      agent: options.agent,
      env: options.env ?? "local",
      image: options.image,
      serverEnv: options.serverEnv,
      host: options.host ?? DEFAULT_BENCH_HOST,
      binary: options.binary,
    };
    await withModeServer(server, async (sessionServer) => {
      const queue = [...pending];
      const worker = async () => {
        for (let spec = queue.shift(); spec && !options.signal?.aborted; spec = queue.shift()) {
          const current = spec;
          const progress = (activity: string) => options.onProgress?.({ done: finished, total, mode, session: current.session_id, activity });
          const line = await sessionServer(current, (server, where, logs) => runOne({ ...options, spec: current, mode, server, where, logs, progress }));
          if (!line) continue;
          await appendFile(files.results, `${JSON.stringify(line)}\n`);
          finished += 1;
          ran += 1;
          options.onProgress?.({ done: finished, total, mode, session: line.session_id, activity: `done: ${line.failure_class}` });
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    });
  }
  const results = await readResults(files.results);
  await writeReports(outDir, results, { title: `Switch-SWE run: ${suite.meta.name}`, ...reportSetting(results) });
  return { results, ran, skipped, interrupted: options.signal?.aborted ?? false, added: [], bytes: 0 };
}

/** Runs one session with the OpenCode server it gets, where its checkouts and scoring run, and the mode's log of model calls. */
type SessionServer = <T>(spec: SessionSpec, body: (server: HostServer, where: SessionPlace, logs: ModeLogs) => Promise<T>) => Promise<T>;

/** What the mode's agent model logged, read per session: the calls it received and, for the faithful agent, what it wrote. */
interface ModeLogs {
  calls: SessionRequestLog;
  decisions: SessionDecisionLog;
}

/**
 * The mode's agent model, and OpenCode servers with the plug-in in that mode: locally one
 * server for all the mode's sessions (OpenCode 1.18 or 2, as `host` says); with `docker`, one
 * OpenCode 1.18 per session inside its container.
 */
async function withModeServer<T>(
  options: {
    suite: Suite;
    mode: Mode;
    outDir: string;
    agent: AgentChoice;
    env: BenchEnv;
    image?: string | undefined;
    serverEnv: Record<string, string>;
    host: BenchHost;
    /** The opencode binary (its path here; in a container, the same path, mounted). */
    binary: string;
  },
  body: (sessionServer: SessionServer) => Promise<T>,
): Promise<T> {
  const { suite, mode, outDir } = options;
  const files = runFiles(outDir);
  await mkdir(files.requests, { recursive: true });
  const logFile = join(files.requests, `${mode}.jsonl`);
  const decisionLog = join(files.requests, `${mode}.decisions.jsonl`);
  const model = await startAgentModel({ agent: options.agent, suite, logFile, decisionLog, runDir: outDir, host: options.host });
  const logs: ModeLogs = { calls: await openRequestLog(logFile), decisions: await openDecisionLog(decisionLog) };
  // Only a resumed run's third session may take up a task of an earlier one: in the mode's shared
  // state every other session run is an "earlier session" holding copies of the same tasks.
  const pluginOptions = (spec?: SessionSpec) => ({
    mode,
    stateDir: stateDirOf(outDir, mode, spec),
    fallback: RUN_FALLBACK,
    resume: { automatic: spec?.condition === "resumed" },
  });
  const env = { ...options.serverEnv, TMPDIR: files.tmp };
  // Sessions run in one folder per mode: a new folder costs OpenCode seconds of start-up, and
  // requests name their workspaces by absolute path anyway.
  const sessionsDir = join(outDir, "sessions");
  /**
   * A resumed session run gets a server (and plug-in state) of its own, its three OpenCode
   * sessions in it: in the mode's shared one, the plug-in would see as earlier sessions every
   * other session run's copies of the same tasks (and keep only the 20 most recent).
   */
  const ownServer = async <R>(start: () => Promise<HostServer>, run: (server: HostServer) => Promise<R>): Promise<R> => {
    const server = await start();
    try {
      return await run(server);
    } finally {
      await server.close();
    }
  };
  /** The mode's shared server runs every session run but a resumed one, which gets its own. */
  const servedBy =
    (shared: HostServer, start: (root: string, spec?: SessionSpec) => Promise<HostServer>): SessionServer =>
    (spec, run) =>
      spec.condition === "resumed"
        ? ownServer(
            () => start(files.resumedHome(spec.session_id, mode), spec),
            (own) => run(own, LOCAL, logs),
          )
        : run(shared, LOCAL, logs);
  try {
    if (options.host === "opencode-2") {
      // OpenCode 2 loads a plug-in folder (the package's server.js), not a file.
      const start = (root: string, spec?: SessionSpec) =>
        startOpencode2Host({
          root,
          cwd: outDir,
          directory: sessionsDir,
          config: model.opencode2Config([{ package: packageRoot(), options: pluginOptions(spec) }]),
          env,
          binary: options.binary,
        });
      return await ownServer(
        () => start(files.home(mode)),
        (server) => body(servedBy(server, start)),
      );
    }
    // A provider's model logs nothing for us: a recorder after opencode-rcm writes what each call gets.
    const recorder = join(packageRoot(), "dist", "lab", "bench", "drive", "call-recorder-plugin.js");
    const config = (spec?: SessionSpec) => {
      const plugins: PluginEntry[] = [[builtEntry("./server"), pluginOptions(spec)]];
      if (options.agent.kind === "model") plugins.push([recorder, { logFile }]);
      return model.config(plugins);
    };
    if (options.env === "docker") {
      return await body((spec, run) =>
        withSessionContainer({ suite, spec, mode, outDir, config: config(spec), env, image: options.image, binary: options.binary }, (server, where) =>
          run(opencode1Host(server, sessionsDir, { owned: false }), where, logs),
        ),
      );
    }
    const start = async (root: string, spec?: SessionSpec) => {
      const home = await createIsolatedHome({ root, config: config(spec) });
      return opencode1Host(await startOpencodeServer({ home, cwd: outDir, env, binary: options.binary }), sessionsDir, { owned: true });
    };
    return await ownServer(
      () => start(files.home(mode)),
      (server) => body(servedBy(server, start)),
    );
  } finally {
    await model.close();
  }
}

async function runOne(
  options: BenchRunOptions &
    PreparedRun & {
      spec: SessionSpec;
      mode: Mode;
      server: HostServer;
      where: SessionPlace;
      logs: ModeLogs;
      progress: (activity: string) => void;
    },
): Promise<ResultLine | undefined> {
  const { suite, spec, mode, server, outDir, where } = options;
  const files = runFiles(outDir);
  const dir = files.session(spec.session_id, mode);
  options.progress("preparing checkouts");
  const checkouts = await prepareCheckouts({ suite, session: spec, dir, seed: options.seed, ...(where.git ? { git: where.git } : {}) });
  const onAbort = () => void server.abortAll();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let run: SessionRun;
  try {
    run = await runSession({
      host: server,
      spec,
      checkouts,
      budgetMs: options.budgetMs,
      maxContinuations: options.maxContinuations,
      ...(options.signal ? { signal: options.signal } : {}),
      onRequest: (index, count, label) => options.progress(`request ${index + 1}/${count} ${label}`),
    });
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (options.signal?.aborted) return undefined;
  // A resumed session's three OpenCode sessions are read as one history, in the order they ran.
  const sessionIDs = run.opencodeSessionIDs ?? [run.opencodeSessionID];
  const messages = (await Promise.all(sessionIDs.map((id) => server.messages(id)))).flat();
  await writeFile(join(dir, "session.json"), `${JSON.stringify({ run, messages }, null, 1)}\n`);
  const state = await readPluginStates(stateDirOf(outDir, mode, spec), sessionIDs);
  const focus = checkouts.get(spec.focus);
  if (!focus) throw new Error(`no checkout for the focus ${spec.focus}`);
  const calls = await options.logs.calls.take(spec.session_id);
  const decisions = await options.logs.decisions.take(spec.session_id);
  // Every metric of metrics/registry.ts, each filling its own field of the line.
  const measured = measureSession({
    spec,
    run,
    messages,
    state,
    calls,
    decisions,
    checkouts,
    focus,
    agentKind: options.agent.kind,
    threshold: options.confidenceThreshold,
  });

  options.progress("scoring");
  // Temp files (scoring's scratch index and patch files, OpenCode's own) stay in the run directory: <run>/tmp.
  const tempDir = files.tmp;
  const patch = await focusPatch(focus.workspace, focus.task.base_commit, { tempDir });
  await writeFile(join(dir, "focus.patch"), patch);
  const report = await where.score({
    task: focus.task,
    repoSource: repoSource(suite, focus.task),
    patch,
    workDir: join(dir, "scoring"),
    timeoutMs: options.testTimeoutMs,
    tempDir,
  });
  await writeFile(join(dir, "report.json"), `${JSON.stringify({ [focus.task.instance_id]: report }, null, 2)}\n`);
  // Scored: the checkouts are scratch (focus.patch and session.json keep what they held that counts).
  if (options.keep !== true) for (const checkout of checkouts.values()) await rm(checkout.workspace, { recursive: true, force: true });
  const kind = failureClass({ finalized: run.finalized, errored: run.error !== undefined, budgetExhausted: run.budgetExhausted, report });
  const line: Omit<ResultLine, MetricField> = {
    session_id: spec.session_id,
    mode,
    focus: spec.focus,
    condition: spec.condition,
    locality: spec.locality,
    resolved: kind === "resolved",
    failure_class: kind,
    finalized: run.finalized,
    budget_exhausted: run.budgetExhausted,
    continuations: run.continuations,
    ...(run.error !== undefined ? { error: run.error } : {}),
    wall_ms: run.wallMs,
    opencode_session_id: run.opencodeSessionID,
    focus_workspace: focus.name,
    patch_bytes: Buffer.byteLength(patch),
    setting: options.setting,
  };
  return inSchemaOrder({ ...line, ...measured });
}

/** Where the plug-in keeps a session run's state: the mode's one directory, or a resumed run's own. */
function stateDirOf(outDir: string, mode: Mode, spec?: SessionSpec): string {
  const files = runFiles(outDir);
  return spec?.condition === "resumed" ? files.resumedState(spec.session_id, mode) : files.state(mode);
}
