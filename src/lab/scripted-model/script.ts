import { z } from "zod";

// The script format: a list of stages, each picked by a substring of the latest user request,
// and a list of replies played back one per model turn. Validated with zod so a typo in a
// test fixture fails loudly with a field path instead of producing a confusing e2e failure.

export const ToolCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});

export const ReplySchema = z
  .strictObject({
    text: z.string().optional(),
    toolCalls: z.array(ToolCallSchema).optional(),
    // Reasoning output is deliberately unsupported; the key is rejected by strictObject.
  })
  .refine((reply) => reply.text !== undefined || (reply.toolCalls !== undefined && reply.toolCalls.length > 0), {
    message: "text or toolCalls is required",
  });

export const StageSchema = z.strictObject({
  id: z.string().min(1),
  when: z.string(),
  steps: z.array(ReplySchema),
});

export const DEFAULT_FALLBACK: Reply = { text: "Done." };

export const DEFAULT_SUMMARY = "## Goal\n- (scripted summary)";

export const ScriptSchema = z.strictObject({
  stages: z.array(StageSchema),
  fallback: ReplySchema.default({ text: "Done." }),
  /** Text answered to OpenCode's compaction (summary) requests, which allow no tool calls. */
  summary: z.string().default(DEFAULT_SUMMARY),
});

export type ToolCall = z.infer<typeof ToolCallSchema>;
export type Reply = z.infer<typeof ReplySchema>;
export type Stage = z.infer<typeof StageSchema>;
/** A script; `fallback` and `summary` may be omitted (parseScript fills in defaults). */
export type Script = z.input<typeof ScriptSchema>;

/** Renders a zod issue path as `stages[2].steps[0]`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** Validates a script; throws `Error("<source>: <path>: <message>")` on the first problem. */
export function parseScript(value: unknown, source = "script"): Script {
  const result = ScriptSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new Error(`${source}: invalid script`);
  const path = formatPath(issue.path);
  throw new Error(path === "" ? `${source}: ${issue.message}` : `${source}: ${path}: ${issue.message}`);
}
