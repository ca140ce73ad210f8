import { z } from "zod";
import { roundConfidence, type RoutingDecision } from "../core/routing/decision.js";
import { routeLexically } from "../core/routing/lexical-router.js";
import type { Router } from "../core/routing/router.js";
import type { TaskProfile } from "../core/routing/task-index.js";
import { taskTitle } from "../core/routing/task-title.js";
import type { AuxClient } from "./aux-client.js";
import { auxUsageOf, describeAuxError } from "./aux-usage.js";
import { completeJson } from "./complete-json.js";
import { loadPrompt, renderPrompt } from "./prompts.js";

const MAX_REQUEST_CHARS = 4000;
const MAX_LISTED = 12;

/**
 * The `model` router: asks the auxiliary model, through any OpenAI-compatible endpoint.
 * Unambiguous evidence (the first request, an explicit reference, a workspace path) is
 * decided lexically without a call. Any failure of the model gives the lexical decision;
 * the call's tokens and time are kept with the decision either way.
 */
export function createModelRouter(client: AuxClient): Router {
  return {
    name: "model",
    async route(request, index) {
      const lexical = routeLexically(request, index);
      if (lexical.basis === "first" || lexical.basis === "explicit" || lexical.basis === "workspace") {
        return { ...lexical, reason: `${lexical.reason} (decided without the model)` };
      }
      const tasks = index.tasks();
      const schema = decisionSchema(tasks.map((task) => task.id));
      const template = await loadPrompt("router");
      const result = await completeJson({
        client,
        name: "routing_decision",
        schema,
        system: "You assign requests in a coding-agent session to tasks. Reply with JSON only.",
        user: renderPrompt(template, {
          tasks: describeTasks(tasks, index.current),
          request: request.text.length > MAX_REQUEST_CHARS ? `${request.text.slice(0, MAX_REQUEST_CHARS)}…` : request.text,
        }),
      });
      const aux = auxUsageOf(result);
      if (!result.ok) {
        const error = describeAuxError(result.error);
        return { ...lexical, reason: `model router failed (${error}); lexical: ${lexical.reason}`, aux: { ...aux, error } };
      }
      const answer = result.value;
      return {
        target: answer.task === "new" ? { kind: "new", title: answer.title.trim() || taskTitle(request.text) } : { kind: "task", task: answer.task },
        confidence: roundConfidence(answer.confidence),
        related: [...new Set(answer.related)].filter((id) => id !== answer.task && tasks.some((task) => task.id === id)).sort(),
        shared: answer.shared,
        reason: answer.reason.trim() || "model decision",
        basis: "content",
        router: "model",
        aux,
      } satisfies RoutingDecision;
    },
  };
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
  const listed = [...tasks].sort((a, b) => b.lastRequest - a.lastRequest).slice(0, MAX_LISTED).sort((a, b) => a.ordinal - b.ordinal);
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
