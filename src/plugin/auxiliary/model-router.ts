import { z } from "zod";
import { clip } from "../core/clip.js";
import { type RoutingDecision, roundConfidence } from "../core/routing/decision.js";
import { applySafetyRules, type LexicalRouterOptions, routeLexically } from "../core/routing/lexical-router.js";
import type { Router, RoutingRequest } from "../core/routing/router.js";
import type { TaskIndex, TaskProfile } from "../core/routing/task-index.js";
import { taskTitle } from "../core/routing/task-title.js";
import type { AuxClient } from "./aux-client.js";
import { auxUsageOf, describeAuxError } from "./aux-usage.js";
import { completeJson } from "./complete-json.js";
import { loadPrompt, renderPrompt } from "./prompts.js";

const MAX_REQUEST_CHARS = 4000;
const MAX_LISTED = 12;

export interface ModelRouterOptions {
  /** `hybrid`: the model is asked only when the lexical decision is below the threshold. */
  hybrid?: boolean;
  /** The lexical router's parameters and the plug-in's threshold. */
  lexical: LexicalRouterOptions;
}

/**
 * The `model` and `hybrid` routers: ask the auxiliary model (an OpenAI-compatible endpoint
 * or the user's own model through OpenCode). `model` decides unambiguous evidence (the
 * first request, an explicit reference, a checkout path) lexically and asks for the rest;
 * `hybrid` asks only when the lexical decision is unsure. Any failure of the model gives
 * the lexical decision; the model's decisions pass the same safety rules; the call's
 * tokens and time are kept with the decision either way.
 */
export function createModelRouter(client: AuxClient, options: ModelRouterOptions): Router {
  const lexicalOptions = options.lexical;
  const { threshold } = lexicalOptions;
  return {
    name: options.hybrid ? "hybrid" : "model",
    async route(request, index) {
      const lexical = routeLexically(request, index, lexicalOptions);
      if (lexical.basis === "first") return { ...lexical, reason: `${lexical.reason} (decided without the model)` };
      if (options.hybrid) {
        if (lexical.confidence >= threshold) return { ...lexical, reason: `${lexical.reason} (confident: decided without the model)` };
      } else if (lexical.basis === "explicit" || lexical.basis === "workspace") {
        return { ...lexical, reason: `${lexical.reason} (decided without the model)` };
      }
      return askModel({ client, request, index, lexical, lexicalOptions });
    },
  };
}

async function askModel(options: {
  client: AuxClient;
  request: RoutingRequest;
  index: TaskIndex;
  lexical: RoutingDecision;
  lexicalOptions: LexicalRouterOptions;
}): Promise<RoutingDecision> {
  const { client, request, index, lexical, lexicalOptions } = options;
  const tasks = index.tasks();
  const template = await loadPrompt("router");
  const result = await completeJson({
    client,
    name: "routing_decision",
    schema: decisionSchema(tasks.map((task) => task.id)),
    system: "You assign requests in a coding-agent session to tasks. Reply with JSON only.",
    user: renderPrompt(template, {
      tasks: describeTasks(tasks, index.current),
      request: clip(request.text, MAX_REQUEST_CHARS, { ellipsisIs: "extra" }),
    }),
    sessionID: request.sessionID,
  });
  const aux = auxUsageOf(result);
  if (!result.ok) {
    const error = describeAuxError(result.error);
    return { ...lexical, reason: `model router failed (${error}); lexical: ${lexical.reason}`, aux: { ...aux, error } };
  }
  const answer = result.value;
  const decision: RoutingDecision = {
    target: answer.task === "new" ? { kind: "new", title: answer.title.trim() || taskTitle(request.text) } : { kind: "task", task: answer.task },
    confidence: roundConfidence(answer.confidence),
    related: [...new Set(answer.related)].filter((id) => id !== answer.task && tasks.some((task) => task.id === id)).sort(),
    shared: answer.shared,
    reason: answer.reason.trim() || "model decision",
    basis: "content",
    router: "model",
    aux,
  };
  return applySafetyRules(decision, request, index, lexicalOptions);
}

function decisionSchema(taskIDs: readonly string[]) {
  return z.object({
    task: z.enum(["new", ...taskIDs] as [string, ...string[]]),
    title: z.string().default(""),
    confidence: z.number().min(0).max(1),
    related: z.array(z.string()).default([]),
    shared: z.boolean().default(false),
    reason: z.string().default(""),
  });
}

/** The task list the model sees: the most recently active tasks, with their latest requests. */
function describeTasks(tasks: readonly TaskProfile[], current: string | undefined): string {
  const listed = [...tasks]
    .sort((a, b) => b.lastRequest - a.lastRequest)
    .slice(0, MAX_LISTED)
    .sort((a, b) => a.ordinal - b.ordinal);
  return listed
    .map((task) => {
      const lines = [`- ${task.id}${task.id === current ? " (current)" : ""}: ${task.title}`];
      const places = [...task.workspaces].slice(0, 3);
      if (places.length > 0) lines.push(`  workspace: ${places.join(", ")}`);
      const files = [...task.files].slice(-8);
      if (files.length > 0) lines.push(`  files: ${files.join(", ")}`);
      for (const text of task.recentRequests) lines.push(`  request: ${text.replace(/\s+/g, " ")}`);
      return lines.join("\n");
    })
    .join("\n");
}
