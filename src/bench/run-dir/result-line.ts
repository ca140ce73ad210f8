import { z } from "zod";
import { MODES } from "../../config/modes.js";
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
  modelCalls: z.number(),
  toolCalls: z.number(),
});

const AuxSchema = z.object({ calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), ms: z.number() });

/** One request of a session as the report draws it. */
const TimelineEntrySchema = z.object({
  /** The suite task the request belongs to (its lane). */
  task: z.string(),
  stage: z.string(),
  continuation: z.boolean(),
  /** The plug-in's decision, when it routed the request. */
  routed_to: z.string().optional(),
  confidence: z.number().optional(),
  /** Below the threshold: the model got the full history. */
  fallback: z.boolean().optional(),
  /** Input tokens of each model call the request took (cached included), as reported; 0 for a call the provider refused. */
  call_input_tokens: z.array(z.number()).describe("Input tokens of each model call of the request, cached included, as reported."),
  /** Positions in `call_input_tokens` of OpenCode's compaction calls: the calls after one see its summary, not the history before it. */
  compactions: z.array(z.number()).optional().describe("Positions in call_input_tokens of the calls that wrote OpenCode's compaction summary."),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

/** What the model had in front of it when the focus task came back, or at finalization. */
const FidelityPointSchema = z.object({
  at: z.enum(["resume", "finalize"]),
  /** The schedule entry of the request. */
  entry: z.number(),
  /** The focus's earlier stage requests: its requirements so far. */
  requirements: z.number(),
  /** Of those, present word for word... */
  verbatim: z.number(),
  /** ...or only as a memory-record constraint that cites the request. */
  cited: z.number(),
  /** Estimated tokens of the conversation (system prompt and tools apart)... */
  context_tokens: z.number(),
  /** ...and of that, the part that belongs to other tasks. */
  other_task_tokens: z.number(),
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
  wrote: z.string(),
  lost: z.array(z.string()),
  leaked: z.array(z.string()),
});
export type FocusWrite = z.infer<typeof FocusWriteSchema>;

export const FAILURE_CLASSES = ["resolved", "implementation", "submission", "incomplete"] as const;

/** One line of `results.jsonl`: one session run in one mode, scored. */
export const ResultLineSchema = z.object({
  session_id: z.string(),
  mode: z.enum(MODES),
  focus: z.string(),
  condition: z.enum(CONDITIONS),
  locality: z.enum(LOCALITIES),
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
  /** What the session ran with (run.json's setting); lines from before it was kept lack it. */
  setting: RunSettingSchema.optional(),
  /** Who decided `resolved`: the driver's own scoring, or SWE-bench's harness (`bench import-reports`). */
  scored_by: z.enum(["driver", "swebench"]).optional(),
  /** The session's requests with routing and per-call input tokens (runs before these fields lack them). */
  timeline: z.array(TimelineEntrySchema).optional(),
  /** Context fidelity at each focus resumption and at finalization; only where the calls were recorded. */
  fidelity: z.array(FidelityPointSchema).optional(),
  cache: CacheTokensSchema.optional(),
  /** With the faithful agent: what its last write of the focus task was made from. */
  focus_write: FocusWriteSchema.optional(),
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
