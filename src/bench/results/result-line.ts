import { z } from "zod";

const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  modelCalls: z.number(),
  toolCalls: z.number(),
});

const AuxSchema = z.object({ calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), ms: z.number() });

export const FAILURE_CLASSES = ["resolved", "implementation", "submission", "incomplete"] as const;

/** One line of `results.jsonl`: one session run in one mode, scored. */
export const ResultLineSchema = z.object({
  session_id: z.string(),
  mode: z.enum(["native", "router", "memory", "full"]),
  focus: z.string(),
  condition: z.enum(["uninterrupted", "switched"]),
  locality: z.enum(["near", "far"]),
  resolved: z.boolean(),
  failure_class: z.enum(FAILURE_CLASSES),
  finalized: z.boolean(),
  budget_exhausted: z.boolean(),
  continuations: z.number(),
  error: z.string().optional(),
  usage: UsageSchema,
  resumed_focus: UsageSchema,
  aux: AuxSchema,
  resumed_focus_aux: AuxSchema,
  wall_ms: z.number(),
  opencode_session_id: z.string(),
  focus_workspace: z.string(),
  patch_bytes: z.number(),
  /** Who decided `resolved`: the driver's own scoring, or SWE-bench's harness (`bench import-reports`). */
  scored_by: z.enum(["driver", "swebench"]).optional(),
});
export type ResultLine = z.infer<typeof ResultLineSchema>;

/** The key a run is resumed by: a session in a mode is done once its line exists. */
export function resultKey(line: Pick<ResultLine, "session_id" | "mode">): string {
  return `${line.mode}\u0000${line.session_id}`;
}
