import type { RoutingDecision } from "./decision.js";
import { type LexicalRouterOptions, type RoutingRequest, routeLexically } from "./lexical-router.js";
import type { TaskIndex } from "./task-index.js";

export type { RoutingRequest };

/** The routers, as the options name them. */
export const ROUTERS = ["lexical", "model", "hybrid"] as const;
export type RouterName = (typeof ROUTERS)[number];

/** Assigns a request to a task. Every router answers through this one interface. */
export interface Router {
  readonly name: RouterName;
  route(request: RoutingRequest, index: TaskIndex): Promise<RoutingDecision>;
}

export function createLexicalRouter(options: LexicalRouterOptions): Router {
  return { name: "lexical", route: async (request, index) => routeLexically(request, index, options) };
}
