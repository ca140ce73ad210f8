import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../../cli-error.js";
import { offlineConfig, quietConfig, type PluginEntry } from "../../harness/opencode-config.js";
import { startScriptedModel } from "../../scripted-model/index.js";
import { createScriptedAgent, loadPlaybook } from "../scripted-agent.js";
import type { Suite } from "../suite/schema.js";
import { REGIMES, type Regime } from "./regimes.js";

/** Who does the work: the suite's scripted agent, or any OpenCode provider/model. */
export type AgentChoice =
  | { kind: "scripted"; regime?: Regime | undefined }
  | { kind: "model"; model: string; providerConfig?: string | undefined };

export interface AgentModel {
  /** The opencode.json for a server that uses this agent, with the given plug-ins. */
  config(plugins: readonly PluginEntry[]): Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Starts what the agent needs: for `scripted`, the scripted model server playing the suite's
 * `agent.json` on loopback; for `model`, nothing (OpenCode reaches the provider itself),
 * with the providers read from `providerConfig` (an opencode.json-style `{ "provider": {...} }`).
 */
export async function startAgentModel(options: { agent: AgentChoice; suite: Suite; logFile: string }): Promise<AgentModel> {
  const { agent, suite } = options;
  if (agent.kind === "scripted") {
    const playbook = await loadPlaybook(join(suite.dir, "agent.json"));
    const window = REGIMES[agent.regime ?? "roomy"];
    const model = await startScriptedModel({ script: createScriptedAgent(playbook), logFile: options.logFile, contextLimit: window.context });
    const limits = { contextLimit: window.context, outputLimit: window.output };
    return { config: (plugins) => offlineConfig({ modelBaseURL: model.url, plugins, ...limits }), close: () => model.close() };
  }
  const provider = agent.providerConfig ? await readProviders(agent.providerConfig) : {};
  return { config: (plugins) => quietConfig({ model: agent.model, provider, plugins }), close: async () => undefined };
}

async function readProviders(file: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new CliError(`--provider-config ${file}: ${error instanceof Error ? error.message : String(error)}`, { code: "provider-config" });
  }
  const provider = typeof value === "object" && value !== null && "provider" in value ? (value as { provider: unknown }).provider : value;
  if (typeof provider !== "object" || provider === null || Array.isArray(provider)) {
    throw new CliError(`--provider-config ${file}: expected {"provider": {"<id>": {...}}}`, { code: "provider-config" });
  }
  return provider as Record<string, unknown>;
}
