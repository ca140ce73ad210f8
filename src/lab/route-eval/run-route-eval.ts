import { RcmError } from "../../kit/errors/rcm-error.js";
import { createAux, createRouter } from "../../plugin/auxiliary/create-aux-users.js";
import { envLayer } from "../../plugin/config/env-layer.js";
import { tupleLayer } from "../../plugin/config/load-options.js";
import { describeProblem } from "../../plugin/config/option-problem.js";
import { resolveOptions } from "../../plugin/config/resolve-options.js";
import { createLexicalRouter, type Router, type RouterName } from "../../plugin/core/routing/router.js";
import { evaluateRouting, type RoutingEvaluation, type TaskIds } from "./evaluate-routing.js";
import { readLabelledSessions } from "./labelled-sessions.js";

/** Reads the labelled sessions (files, or directories of them) and evaluates the chosen router over them. */
export async function runRouteEval(options: {
  paths: readonly string[];
  router: RouterName;
  threshold: number;
  env: Readonly<Record<string, string | undefined>>;
  ids?: TaskIds;
  wrongEdits?: number;
}): Promise<RoutingEvaluation> {
  const sessions = [];
  for (const path of options.paths) sessions.push(...(await readLabelledSessions(path)));
  return evaluateRouting({
    sessions,
    router: routerFor(options.router, options.threshold, options.env),
    threshold: options.threshold,
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.wrongEdits === undefined ? {} : { wrongEdits: options.wrongEdits }),
  });
}

/**
 * The model and hybrid routers read their endpoint as the plug-in does (RCM_AUX_BASE_URL,
 * RCM_AUX_MODEL, RCM_AUX_API_KEY); outside OpenCode there are no OpenCode models to ask.
 */
function routerFor(name: RouterName, threshold: number, env: Readonly<Record<string, string | undefined>>): Router {
  if (name === "lexical") return createLexicalRouter({ threshold });
  const { options, problems } = resolveOptions([tupleLayer({ router: name, confidenceThreshold: threshold, aux: { source: "endpoint" } }), envLayer(env)]);
  if (problems.length > 0) throw new RcmError("route-eval-setup", problems.map(describeProblem).join("; "));
  return createRouter(options, createAux(options, env));
}
