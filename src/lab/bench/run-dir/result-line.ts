import { z } from "zod";
import { MODES } from "../../../plugin/config/modes.js";
import { CONDITIONS, LOCALITIES } from "../suite/schema.js";
import { RunSettingSchema } from "./experiment.js";

/**
 * What a stretch of a session cost, as reported: the agent's model's own counts (a provider's,
 * or the scripted model's) that OpenCode stored with each call, added up. Never estimated.
 * Lines written before `cachedInputTokens` had `inputTokens` without the cached part and
 * `cacheReadTokens`; `readResults` converts them.
 */
const UsageSchema = z.object({
  inputTokens: z.number().describe("Input (prompt) tokens of every model call, cached ones included, as reported."),
  outputTokens: z.number().describe("Output tokens, reasoning included, as reported."),
  cachedInputTokens: z.number().describe("Of the input tokens, the ones read from the provider's prompt cache, as reported."),
  cacheWriteTokens: z.number().describe("Of the input tokens, the ones written to the prompt cache (providers that count writes), as reported."),
  modelCalls: z.number().describe("Model calls (assistant messages OpenCode stored), compaction calls included."),
  toolCalls: z.number().describe("Tool calls those model calls made."),
});

const AuxSchema = z.object({
  calls: z.number().describe("Calls of the plug-in's aux model (routing and memory updates)."),
  inputTokens: z.number().describe("Their input tokens, as the aux model reported."),
  outputTokens: z.number().describe("Their output tokens, as the aux model reported."),
  ms: z.number().describe("Their wall time, milliseconds."),
});

/** One request of a session as the report draws it. */
const TimelineEntrySchema = z.object({
  /** The suite task the request belongs to (its lane). */
  task: z.string().describe("The suite task the request belongs to."),
  stage: z.string().describe("Its stage id, or finalize."),
  continuation: z.boolean().describe("A continuation the driver sent after the request ran out of its budget."),
  /** The plug-in's decision, when it routed the request. */
  routed_to: z.string().optional().describe("The plug-in's task the request was routed to (its own ids), when it routed it."),
  confidence: z.number().optional().describe("The routing confidence, 0 to 1."),
  /** Below the threshold: the model got the full history. */
  fallback: z.boolean().optional().describe("Below the confidence threshold: the model got the full history."),
  /** Input tokens of each model call the request took (cached included), as reported; 0 for a call the provider refused. */
  call_input_tokens: z.array(z.number()).describe("Input tokens of each model call of the request, cached included, as reported."),
  /** Positions in `call_input_tokens` of OpenCode's compaction calls: the calls after one see its summary, not the history before it. */
  compactions: z.array(z.number()).optional().describe("Positions in call_input_tokens of the calls that wrote OpenCode's compaction summary."),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

/** What the model had in front of it when the focus task came back, or at finalization. */
const FidelityPointSchema = z.object({
  at: z.enum(["resume", "finalize"]).describe("The first call of a request that returns to the focus after another task's, or of the finalization."),
  /** The schedule entry of the request. */
  entry: z.number().describe("The request's index in the session's schedule, from 0."),
  /** The focus's earlier stage requests: its requirements so far. */
  requirements: z.number().describe("The focus's earlier stage requests: its requirements so far."),
  /** Of those, present word for word... */
  verbatim: z.number().describe("Of those, present word for word in the call."),
  /** ...or only as a memory-record constraint that cites the request. */
  cited: z.number().describe("Of those, present only as a memory-record constraint that cites the request."),
  /** Estimated tokens of the conversation (system prompt and tools apart)... */
  context_tokens: z.number().describe("Estimated tokens of the call's conversation, system prompt and tools apart."),
  /** ...and of that, the part that belongs to other tasks. */
  other_task_tokens: z.number().describe("Of those, the estimated tokens of other tasks' requests and the exchanges after them."),
});
export type FidelityPoint = z.infer<typeof FidelityPointSchema>;

/**
 * What a cache-aware price is computed from: all input tokens, and how many were cache reads.
 * `provider`: reported (the line's `usage`); `simulated`: estimated, characters over
 * CHARS_PER_TOKEN of the recorded calls as sent (tools, system prompt and messages), with an
 * OpenAI-style prefix cache replayed over them (docs/benchmark-token-counts.md).
 */
const CacheTokensSchema = z.object({
  source: z.enum(["provider", "simulated"]).describe("provider: reported by the provider; simulated: estimated over the recorded calls."),
  input_tokens: z.number().describe("Input tokens of every model call, cached included."),
  cached_tokens: z.number().describe("Of those, cache reads (the provider's, or the simulated prefix cache's)."),
});
export type CacheTokens = z.infer<typeof CacheTokensSchema>;

/** The faithful agent's last write of the focus task: which of its stages it lost, which other tasks' requirements leaked in. */
const FocusWriteSchema = z.object({
  wrote: z.string().describe('Which files it wrote: the stage id, "<stage> without <stages>" or "<stage> with <task>/<stage>".'),
  lost: z.array(z.string()).describe("The focus's earlier stages out of view at that write."),
  leaked: z.array(z.string()).describe("Other tasks' stages (<task>/<stage>) whose requirement it applied."),
});
export type FocusWrite = z.infer<typeof FocusWriteSchema>;

/**
 * A resumed session's return: its three OpenCode sessions, and which of the focus's earlier
 * requirements reached the first model call of the third session (the focus's last stage, asked
 * in a new session), as the faithful agent saw them or as the recorded call shows them.
 */
const ResumptionSchema = z.object({
  opencode_session_ids: z
    .array(z.string())
    .describe("The OpenCode sessions in order: the focus's first stages, the interruptions, the focus's last stage and finalize."),
  requirements: z.array(z.string()).describe("The focus's stages before its last: the requirements the third session had to get back."),
  carried: z.array(z.string()).optional().describe("Of those, the ones in the third session's first model call."),
  missed: z.array(z.string()).optional().describe("Of those, the ones not in it."),
  seen_by: z
    .enum(["rule phrase", "request or cited record"])
    .optional()
    .describe(
      "rule phrase: the faithful agent's (the stage's faithful rule phrase in the call's words); request or cited record: the stage's request word for word, or a memory-record constraint citing it, in the recorded call.",
    ),
});
export type Resumption = z.infer<typeof ResumptionSchema>;

const FAILURE_CLASSES = ["resolved", "implementation", "submission", "incomplete"] as const;

/** One line of `results.jsonl`: one session run in one mode, scored. */
export const ResultLineSchema = z.object({
  session_id: z.string().describe("The session of sessions.jsonl."),
  mode: z.enum(MODES).describe("The plug-in's mode the session ran in."),
  focus: z.string().describe("The session's focus task."),
  condition: z.enum(CONDITIONS).describe("The session's condition."),
  locality: z.enum(LOCALITIES).describe("The session's locality."),
  resolved: z.boolean().describe("Every FAIL_TO_PASS and PASS_TO_PASS test of the focus passed with its final patch."),
  failure_class: z
    .enum(FAILURE_CLASSES)
    .describe(
      "implementation: the patch applied, a test fails; submission: no patch, or it did not apply; incomplete: the budget ran out, an error, or no finalization.",
    ),
  finalized: z.boolean().describe("The finalization request was sent and answered."),
  budget_exhausted: z.boolean().describe("A request ran out of its budget after the last continuation allowed."),
  continuations: z.number().describe("Continuations sent after a request ran out of its budget."),
  error: z.string().optional().describe("What went wrong, when the session failed with an error."),
  usage: UsageSchema.describe("The agent's model's reported usage over the whole session."),
  resumed_focus: UsageSchema.describe("The same over the focus's requests after its first stage (in a switched or resumed session, the resumed ones)."),
  aux: AuxSchema.describe("The plug-in's aux model over the whole session."),
  resumed_focus_aux: AuxSchema.describe("The same over the focus's requests after its first stage."),
  wall_ms: z.number().describe("The session's wall time, milliseconds, scoring apart."),
  opencode_session_id: z.string().describe("OpenCode's id of the session (of a resumed session, the third one's: the focus's return)."),
  focus_workspace: z.string().describe("The focus's checkout (ws1..ws5) under sessions/<session>/<mode>/."),
  patch_bytes: z.number().describe("Size of the focus patch scored, bytes."),
  /** What the session ran with (run.json's setting); lines from before it was kept lack it. */
  setting: RunSettingSchema.optional(),
  /** Who decided `resolved`: the driver's own scoring, or SWE-bench's harness (`bench import-reports`). */
  scored_by: z
    .enum(["driver", "swebench"])
    .optional()
    .describe("Who decided resolved: the driver's own scoring (when absent too), or SWE-bench's harness (bench import-reports)."),
  /** The session's requests with routing and per-call input tokens (runs before these fields lack them). */
  timeline: z.array(TimelineEntrySchema).optional().describe("The session's requests in order."),
  /** Context fidelity at each focus resumption and at finalization; only where the calls were recorded. */
  fidelity: z
    .array(FidelityPointSchema)
    .optional()
    .describe("Context fidelity at each focus resumption and at finalization; only where the calls were recorded."),
  cache: CacheTokensSchema.optional().describe("What a cache-aware price is computed from."),
  /** With the faithful agent: what its last write of the focus task was made from. */
  focus_write: FocusWriteSchema.optional().describe("With --agent faithful: what its last write of the focus task was made from."),
  /** A resumed session's return (condition resumed only). */
  resumption: ResumptionSchema.optional().describe("Condition resumed: its OpenCode sessions, and what of the focus's earlier requirements reached the third."),
});
export type ResultLine = z.infer<typeof ResultLineSchema>;

/** The key a run is resumed by: a session in a mode is done once its line exists. */
export function resultKey(line: Pick<ResultLine, "session_id" | "mode">): string {
  return `${line.mode}\u0000${line.session_id}`;
}

/**
 * The line with its fields in the schema's order, however it was put together (the run's
 * fields and the metrics' fields come from different places): results.jsonl keeps one order.
 */
export function inSchemaOrder(line: ResultLine): ResultLine {
  const ordered: Record<string, unknown> = {};
  for (const field of Object.keys(ResultLineSchema.shape)) {
    const value = (line as Record<string, unknown>)[field];
    if (value !== undefined) ordered[field] = value;
  }
  return ordered as ResultLine;
}
