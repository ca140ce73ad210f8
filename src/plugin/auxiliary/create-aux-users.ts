import { auxSourceOf, memoryUpdaterOf, type Options } from "../config/options-schema.js";
import { extractiveUpdater } from "../core/memory/extractive-updater.js";
import type { MemoryUpdater } from "../core/memory/updater.js";
import { createLexicalRouter, type Router } from "../core/routing/router.js";
import type { AuxClient } from "./aux-client.js";
import { createAuxClient } from "./endpoint-client.js";
import { createModelMemoryUpdater } from "./model-memory-updater.js";
import { createModelRouter } from "./model-router.js";
import { createOpencodeAuxClient, type OpencodeModels } from "./opencode-client.js";

/** True when something the options ask for calls the aux model. */
function needsAux(options: Options): boolean {
  return options.router !== "lexical" || memoryUpdaterOf(options) === "model";
}

/**
 * The one aux-model client the router and the memory share: the configured endpoint, or the
 * user's models through OpenCode (`opencode`, when the plug-in runs inside it); undefined when
 * nothing needs one or none can be made.
 */
export function createAux(options: Options, env: Readonly<Record<string, string | undefined>>, opencode?: OpencodeModels): AuxClient | undefined {
  if (!needsAux(options)) return undefined;
  const { baseURL, model, apiKeyEnv, timeoutMs, cooldownMs } = options.aux;
  if (auxSourceOf(options.aux) === "opencode") {
    return opencode ? createOpencodeAuxClient({ models: opencode, model, timeoutMs, cooldownMs }) : undefined;
  }
  if (baseURL === undefined || model === undefined) return undefined;
  return createAuxClient({ baseURL, model, apiKey: env[apiKeyEnv], timeoutMs, cooldownMs });
}

/** The router the options ask for; without an aux client the model and hybrid routers are lexical. */
export function createRouter(options: Options, aux: AuxClient | undefined): Router {
  const lexical = { threshold: options.confidenceThreshold };
  if (options.router === "lexical" || aux === undefined) return createLexicalRouter(lexical);
  return createModelRouter(aux, { hybrid: options.router === "hybrid", lexical });
}

/** The memory updater the options ask for (extractive when no aux model is configured). */
export function createMemoryUpdater(options: Options, aux: AuxClient | undefined): MemoryUpdater {
  if (memoryUpdaterOf(options) !== "model" || aux === undefined) return extractiveUpdater;
  const { batchGroups, batchTokens } = options.memory;
  return createModelMemoryUpdater(aux, { maxGroups: batchGroups, maxTokens: batchTokens });
}
