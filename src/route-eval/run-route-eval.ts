import { lexicalRouter, type Router } from "../core/routing/router.js";
import { createRouter } from "../plugin/create-aux-users.js";
import { describeProblem, resolveOptions } from "../plugin/options.js";
import { evaluateRouting, type RoutingEvaluation } from "./evaluate-routing.js";
import { readLabelledSessions } from "./labelled-sessions.js";

export const ROUTER_NAMES = ["lexical", "model"] as const;
export type RouterName = (typeof ROUTER_NAMES)[number];

/** Reads the labelled sessions and evaluates the chosen router over them. */
export async function runRouteEval(options: {
  file: string;
  router: RouterName;
  threshold: number;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<RoutingEvaluation> {
  const sessions = await readLabelledSessions(options.file);
  return evaluateRouting({ sessions, router: routerFor(options.router, options.env), threshold: options.threshold });
}

/** The model router reads its endpoint as the plug-in does: RCM_AUX_BASE_URL, RCM_AUX_MODEL, RCM_AUX_API_KEY. */
function routerFor(name: RouterName, env: Readonly<Record<string, string | undefined>>): Router {
  if (name === "lexical") return lexicalRouter;
  const { options, problems } = resolveOptions({ router: "model" }, env);
  if (problems.length > 0) throw new RouteEvalSetupError(problems.map(describeProblem).join("; "));
  return createRouter(options, env);
}

/** The model router was asked for without an endpoint to reach. */
export class RouteEvalSetupError extends Error {
  override name = "RouteEvalSetupError";
}
