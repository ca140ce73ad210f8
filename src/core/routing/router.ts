import type { RoutingDecision } from "./decision.js";
import { routeLexically, type RoutingRequest } from "./lexical-router.js";
import type { TaskIndex } from "./task-index.js";

export type { RoutingRequest };

/** Assigns a request to a task. Both routers answer through this one interface. */
export interface Router {
  readonly name: "lexical" | "model";
  route(request: RoutingRequest, index: TaskIndex): Promise<RoutingDecision>;
}

export const lexicalRouter: Router = {
  name: "lexical",
  route: async (request, index) => routeLexically(request, index),
};
