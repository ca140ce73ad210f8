import type { AgentChoice } from "./agent-model.js";
import { DEFAULT_REGIME, isRegime, REGIMES } from "./regimes.js";

/** The label every scripted run's report carries, so no one reads its rates as a model's. */
export const SCRIPTED_LABEL = "Scripted agent: mechanism, not model quality.";

/** One line for a report: who did the work, in which window. */
export function describeAgent(agent: AgentChoice): string {
  if (agent.kind === "model") return `Agent: ${agent.model} through OpenCode.`;
  const regime = agent.regime !== undefined && isRegime(agent.regime) ? agent.regime : DEFAULT_REGIME;
  return `Agent: ${scriptedAgent(agent.kind)}. Regime: ${regime}, ${REGIMES[regime].description}. ${SCRIPTED_LABEL}`;
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

/** `describeAgent` for the `agent` field of a run's run.json; undefined when it is not one. */
export function describeRunAgent(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { kind, regime, model } = value as Record<string, unknown>;
  if (kind === "model" && typeof model === "string") return describeAgent({ kind, model });
  if (kind !== "scripted" && kind !== "faithful") return undefined;
  return describeAgent(typeof regime === "string" && isRegime(regime) ? { kind, regime } : { kind });
}
