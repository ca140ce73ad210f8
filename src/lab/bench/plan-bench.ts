import { hostLabel } from "./drive/bench-host.js";
import { describeAgent } from "./drive/describe-agent.js";
import { type BenchRunOptions, prepareRun } from "./run-bench.js";
import { openExperiment } from "./run-dir/open-experiment.js";
import { resultKey } from "./run-dir/result-line.js";
import { shardRuns } from "./shard.js";
import type { SessionSpec } from "./suite/schema.js";

/** Model calls a scripted agent makes per request: the tool step, then its report (agent/agent-steps.ts). */
const SCRIPTED_CALLS_PER_REQUEST = 2;

/**
 * `bench run --dry-run`: what the run would do, from the same preparation the run makes (the
 * suite loaded, the setting, the run directory's verdict), without starting OpenCode or a model.
 */
export async function planBench(options: BenchRunOptions): Promise<string> {
  const prepared = await prepareRun(options);
  const { suite, specs, setting, outDir } = prepared;
  const opened = await openExperiment(outDir, prepared.request, { dryRun: true });
  const mine = options.shard ? shardRuns(specs, options.modes, options.shard) : undefined;
  const runs = options.modes.flatMap((mode) =>
    specs.filter((spec) => mine === undefined || mine.has(resultKey({ session_id: spec.session_id, mode }))).map((spec) => ({ mode, spec })),
  );
  const requests = runs.reduce((sum, run) => sum + run.spec.schedule.length, 0);
  const count = (condition: SessionSpec["condition"]) => specs.filter((spec) => spec.condition === condition).length;
  const suiteSessions = specs.filter((spec) => spec.condition !== "resumed").length;
  const resumed = count("resumed");
  // A resumed session is the driver's, made from a switched one: said apart, and only when asked.
  const made = resumed > 0 ? `; and ${resumed} resumed, each in three OpenCode sessions, made from the switched ones` : "";
  const agent = options.agent;
  const calls =
    agent.kind === "model"
      ? `at least ${requests} (one per request); a coding model takes several per request (its tool loop), each up to the request's budget`
      : `${requests * SCRIPTED_CALLS_PER_REQUEST} (${SCRIPTED_CALLS_PER_REQUEST} per request), to the scripted model on 127.0.0.1: no provider, no cost`;
  const lines = [
    "Dry run: nothing is started and no model is called.",
    `suite:     ${suite.meta.name} (${suite.dir}), sha256 ${setting.suite_sha256.slice(0, 16)}...`,
    `sessions:  ${suiteSessions} of the suite's ${suite.sessions.length} (${count("uninterrupted")} uninterrupted, ${count("switched")} switched${made})`,
    `modes:     ${options.modes.join(", ")}`,
    `runs:      ${runs.length} session runs${options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : ""}, ${requests} requests`,
    `agent:     ${describeAgent(agent, setting.host)}`,
    `host:      ${hostLabel(setting)}`,
    ...providerLines(options),
    `model calls expected: ${calls}`,
    `limits:    ${options.budgetMs / 1000} s per request, then up to ${options.maxContinuations} continuations; ${options.concurrency} session(s) at once; tests ${options.testTimeoutMs / 1000} s`,
    `plug-in:   opencode-rcm ${setting.plugin_version}, threshold ${setting.confidence_threshold}, fallback ${setting.fallback}`,
    `run dir:   ${outDir}: ${opened.made ? `goes on with its experiment (${opened.done} session runs done${opened.added.length > 0 ? `; adds ${opened.added.join(" and ")}` : ""})` : "new"}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** With `--model`: where the provider comes from and what reaches the OpenCode servers. */
function providerLines(options: BenchRunOptions): string[] {
  const agent = options.agent;
  if (agent.kind !== "model") return [];
  const provider = agent.model.split("/")[0] ?? "";
  const passed = options.passEnv ?? [];
  const given = passed.length > 0 ? `--pass-env ${passed.join(", ")}` : "no provider key (--pass-env NAME gives one)";
  return [
    agent.providerConfig === undefined
      ? `provider:  "${provider}", one OpenCode knows itself (no --provider-config)`
      : `provider:  "${provider}" from ${agent.providerConfig}`,
    `credentials: the servers run in private homes (not your ~/.config/opencode, not your auth.json); they get ${given}, and RCM_*`,
  ];
}
