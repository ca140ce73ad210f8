import { createAuxClient } from "../aux/aux-client.js";
import { createModelRouter } from "../aux/model-router.js";
import { lexicalRouter, type Router } from "../core/routing/router.js";
import type { Options } from "./options.js";

/** The router the options ask for; the model router's key comes from the named env variable. */
export function createRouter(options: Options, env: Readonly<Record<string, string | undefined>>): Router {
  const { baseURL, model, apiKeyEnv, timeoutMs } = options.aux;
  if (options.router !== "model" || baseURL === undefined || model === undefined) return lexicalRouter;
  return createModelRouter(createAuxClient({ baseURL, model, apiKey: env[apiKeyEnv], timeoutMs }));
}
