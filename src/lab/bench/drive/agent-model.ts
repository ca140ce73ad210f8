import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { RcmError } from "../../../kit/errors/rcm-error.js";
import { type Opencode2PluginEntry, opencode2Config } from "../../harness/opencode-2-server.js";
import { offlineConfig, type PluginEntry, quietConfig } from "../../harness/opencode-config.js";
import { startScriptedModel } from "../../scripted-model/index.js";
import { createFaithfulAgent, type FaithfulDecision } from "../agent/faithful-agent.js";
import { loadFaithfulPlaybook } from "../agent/faithful-playbook.js";
import { loadPlaybook } from "../agent/playbook.js";
import { createScriptedAgent } from "../agent/replay-agent.js";
import type { Suite } from "../suite/schema.js";
import { type BenchHost, DEFAULT_BENCH_HOST } from "./bench-host.js";
import { readProviders } from "./model-provider.js";
import { opencode2Agent } from "./opencode-2-dialect.js";
import { DEFAULT_REGIME, type Regime, regimeWindow } from "./regimes.js";

/**
 * Who does the work: one of the suite's scripted agents (`scripted` replays the playbook
 * whatever it is shown; `faithful` writes what the requirements in view imply), or any
 * OpenCode provider/model.
 */
export const SCRIPTED_AGENTS = ["scripted", "faithful"] as const;
type ScriptedAgent = (typeof SCRIPTED_AGENTS)[number];

export type AgentChoice = { kind: ScriptedAgent; regime?: Regime | undefined } | { kind: "model"; model: string; providerConfig?: string | undefined };

export interface AgentModel {
  /** The opencode.json for an OpenCode 1.18 server that uses this agent, with the given plug-ins. */
  config(plugins: readonly PluginEntry[]): Record<string, unknown>;
  /** The opencode.json for an OpenCode 2 server (a scripted agent started for host opencode-2). */
  opencode2Config(plugins: readonly Opencode2PluginEntry[]): Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Starts what the agent needs: for `scripted`, the scripted model server playing the suite's
 * `agent.json` on loopback; for `model`, nothing (OpenCode reaches the provider itself),
 * with the providers read from `providerConfig` (an opencode.json-style `{ "provider": {...} }`).
 */
export async function startAgentModel(options: {
  agent: AgentChoice;
  suite: Suite;
  logFile: string;
  decisionLog: string;
  runDir?: string;
  /** Which OpenCode the agent answers: OpenCode 2 names its tools and asks for compactions its own way. */
  host?: BenchHost | undefined;
}): Promise<AgentModel> {
  const { agent, suite } = options;
  const host = options.host ?? DEFAULT_BENCH_HOST;
  if (agent.kind !== "model") {
    const played =
      agent.kind === "faithful" ? await faithfulAgent(suite, options.decisionLog) : createScriptedAgent(await loadPlaybook(join(suite.dir, "agent.json")));
    const script = host === "opencode-2" ? opencode2Agent(played) : played;
    const window = regimeWindow(agent.regime ?? DEFAULT_REGIME, host);
    // Token counts treat the run directory as /run: where a run lives does not move its compactions.
    const model = await startScriptedModel({
      script,
      logFile: options.logFile,
      contextLimit: window.context,
      ...(options.runDir ? { neutralDir: options.runDir } : {}),
    });
    const limits = { contextLimit: window.context, outputLimit: window.output };
    return {
      config: (plugins) => offlineConfig({ modelBaseURL: model.url, plugins, ...limits }),
      opencode2Config: (plugins) => opencode2Config({ modelBaseURL: model.url, plugins, ...limits }),
      close: () => model.close(),
    };
  }
  if (host === "opencode-2") throw modelOnOpencode2();
  const provider = agent.providerConfig ? await readProviders(agent.providerConfig) : {};
  return {
    config: (plugins) => quietConfig({ model: agent.model, provider, plugins }),
    opencode2Config: () => {
      throw modelOnOpencode2();
    },
    close: async () => undefined,
  };
}

/**
 * A provider's model logs nothing itself: on OpenCode 1.18 a second plug-in records what each
 * call got (`call-recorder-plugin.ts`), and it has no OpenCode 2 counterpart yet.
 */
export function modelOnOpencode2(): RcmError {
  return new RcmError(
    "usage",
    "--host opencode-2 runs the scripted agents only (--agent scripted or faithful): a provider's model (--model) needs the bench's call recorder, a plug-in for OpenCode 1.18 only so far",
  );
}

/** The faithful agent, logging each decision as a line of `decisionLog`, in order. */
async function faithfulAgent(suite: Suite, decisionLog: string) {
  const playbook = await loadFaithfulPlaybook(suite.dir);
  let queue: Promise<void> = Promise.resolve();
  const onDecision = (decision: FaithfulDecision) => {
    const line = `${JSON.stringify(decision)}\n`;
    queue = queue.then(() => appendFile(decisionLog, line, "utf8"));
  };
  const agent = createFaithfulAgent(playbook, { onDecision });
  // The reply waits for its decision to be logged: the run reads the log once the session ends.
  return async (request: Parameters<typeof agent>[0]) => {
    const reply = await agent(request);
    await queue;
    return reply;
  };
}
