import type { RunSetting } from "../run-dir/experiment.js";
import type { ResultLine } from "../run-dir/result-line.js";
import { type RunOptions, runConfidenceThreshold } from "../run-dir/run-files.js";
import type { AgentChoice } from "./agent-model.js";
import { describeHost, hostLabel, settingHost } from "./bench-host.js";
import { DEFAULT_REGIME, isRegime, regimeWindow } from "./regimes.js";

/** The label every scripted run's report carries, so no one reads its rates as a model's. */
export const SCRIPTED_LABEL = "Scripted agent: mechanism, not model quality.";

/** One line for a report: who did the work, in which window (on `host`, OpenCode 1.18 when not given). */
export function describeAgent(agent: AgentChoice, host?: string): string {
  if (agent.kind === "model") return `Agent: ${agent.model} through OpenCode.`;
  const regime = agent.regime !== undefined && isRegime(agent.regime) ? agent.regime : DEFAULT_REGIME;
  return `Agent: ${scriptedAgent(agent.kind)}. Regime: ${regime}, ${regimeWindow(regime, host).description}. ${SCRIPTED_LABEL}`;
}

/** One line for a report over runs in several regimes: the scripted agent, without the window. */
export function describeScriptedAgent(kind: "scripted" | "faithful"): string {
  return `Agent: ${scriptedAgent(kind)}. ${SCRIPTED_LABEL}`;
}

function scriptedAgent(kind: "scripted" | "faithful"): string {
  return kind === "faithful"
    ? "the faithful scripted agent (writes what the requirements in view imply: a requirement lost from the context, or another task's leaking in, fails a held-out test)"
    : "the replay scripted agent (writes the playbook's files whatever it is shown: it tests the pipeline, and resolves everything)";
}

/** `describeAgent` for the `agent` field of a run's run.json (run on `host`); undefined when it is not one. */
export function describeRunAgent(value: unknown, host?: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { kind, regime, model } = value as Record<string, unknown>;
  if (kind === "model" && typeof model === "string") return describeAgent({ kind, model });
  if (kind !== "scripted" && kind !== "faithful") return undefined;
  return describeAgent(typeof regime === "string" && isRegime(regime) ? { kind, regime } : { kind }, host);
}

/**
 * What a report says its results ran with, read from the lines themselves: the agent line and
 * the plug-in's threshold of their one setting, or each setting with its count when the lines
 * disagree (results put together by hand); run.json's for lines made before they carried it.
 */
export function reportSetting(results: readonly ResultLine[], run?: RunOptions): { setting?: string; host: string; confidenceThreshold: number } {
  const host = reportHost(results, run);
  const settings = new Map<string, { setting: RunSetting; count: number }>();
  for (const line of results) {
    if (line.setting === undefined) continue;
    // A line from before the host was kept ran OpenCode 1.18: a resumed run's lines are one experiment.
    const key = JSON.stringify({ ...line.setting, host: settingHost(line.setting), host_version: undefined });
    const seen = settings.get(key);
    if (seen) seen.count += 1;
    else settings.set(key, { setting: line.setting, count: 1 });
  }
  const distinct = [...settings.values()];
  const only = distinct.length === 1 && distinct[0]?.count === results.length ? distinct[0].setting : undefined;
  if (only !== undefined) {
    const agent = describeRunAgent({ kind: only.agent, regime: only.regime, model: only.model }, only.host);
    return { ...(agent === undefined ? {} : { setting: agent }), host, confidenceThreshold: only.confidence_threshold };
  }
  if (distinct.length === 0) {
    const agent = describeRunAgent(run?.agent, run?.setting?.host);
    return { ...(agent === undefined ? {} : { setting: agent }), host, confidenceThreshold: runConfidenceThreshold(run) };
  }
  const unmarked = results.length - distinct.reduce((sum, entry) => sum + entry.count, 0);
  const parts = distinct.map(
    ({ setting, count }) =>
      `${count} lines: ${setting.agent}${setting.regime ? ` (${setting.regime})` : ""}${setting.model ? ` ${setting.model}` : ""}, threshold ${setting.confidence_threshold}, suite ${setting.suite_sha256.slice(0, 12)}`,
  );
  if (unmarked > 0) parts.push(`${unmarked} lines without a setting`);
  return { setting: `Mixed settings, not one experiment: ${parts.join("; ")}.`, host, confidenceThreshold: runConfidenceThreshold(run) };
}

/**
 * One line: which OpenCode ran the lines (their settings', else run.json's; a run from before
 * the host was kept ran OpenCode 1.18) with the version its binary reported, or each host with
 * its count when they differ.
 */
export function reportHost(results: readonly ResultLine[], run?: RunOptions): string {
  const settings = results.length > 0 ? results.map((line) => line.setting ?? run?.setting ?? {}) : [run?.setting ?? {}];
  const counts = new Map<string, number>();
  for (const setting of settings) counts.set(settingHost(setting), (counts.get(settingHost(setting)) ?? 0) + 1);
  const [host] = [...counts.keys()];
  if (counts.size === 1 && host !== undefined) {
    const versions = new Set(settings.flatMap((setting) => (setting.host_version === undefined ? [] : [setting.host_version])));
    const [version] = [...versions];
    return describeHost({ host, ...(versions.size === 1 && version !== undefined ? { host_version: version } : {}) });
  }
  const hosts = [...counts].map(([name, count]) => `${count} lines: ${hostLabel({ host: name })}`);
  return `Hosts (mixed): ${hosts.join("; ")}.`;
}
