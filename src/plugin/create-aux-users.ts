import { createAuxClient, type AuxClient } from "../aux/aux-client.js";
import { createModelMemoryUpdater } from "../aux/model-memory-updater.js";
import { createModelRouter } from "../aux/model-router.js";
import { extractiveUpdater } from "../core/memory/extractive-updater.js";
import type { MemoryUpdater } from "../core/memory/updater.js";
import { lexicalRouter, type Router } from "../core/routing/router.js";
import { memoryUpdaterOf, type Options } from "./options.js";

/** The one aux-model client the router and the memory share; undefined when none is configured. */
export function createAux(options: Options, env: Readonly<Record<string, string | undefined>>): AuxClient | undefined {
  const { baseURL, model, apiKeyEnv, timeoutMs } = options.aux;
  if (baseURL === undefined || model === undefined) return undefined;
  return createAuxClient({ baseURL, model, apiKey: env[apiKeyEnv], timeoutMs });
}

/** The router the options ask for; the model router's key comes from the named env variable. */
export function createRouter(options: Options, env: Readonly<Record<string, string | undefined>>, aux = createAux(options, env)): Router {
  if (options.router !== "model" || aux === undefined) return lexicalRouter;
  return createModelRouter(aux);
}

/** The memory updater the options ask for (extractive when no aux model is configured). */
export function createMemoryUpdater(options: Options, aux: AuxClient | undefined): MemoryUpdater {
  if (memoryUpdaterOf(options) !== "model" || aux === undefined) return extractiveUpdater;
  const { batchGroups, batchTokens } = options.memory;
  return createModelMemoryUpdater(aux, { maxGroups: batchGroups, maxTokens: batchTokens });
}
