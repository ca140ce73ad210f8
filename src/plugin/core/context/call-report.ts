import { z } from "zod";
import type { InteractionGroup } from "../interaction-groups.js";
import { tokensForChars } from "../memory/estimate-tokens.js";
import type { MessageWithParts } from "../messages.js";
import type { ActiveTask, CallView } from "./call-view.js";
import type { ContextPlan } from "./context-plan.js";

/** Where one task's groups went in a model call. */
const GroupTallySchema = z.object({
  /** A task id, or `shared`, `unassigned`, `compaction`. */
  label: z.string(),
  kept: z.number().int().min(0),
  /** Left out: another task's. */
  dropped: z.number().int().min(0),
  /** The request stayed; its exchange was replaced by the record. */
  replaced: z.number().int().min(0),
});
type GroupTally = z.infer<typeof GroupTallySchema>;

/**
 * How a call used its task's memory record: which record (the exchanges it covers, its coverage
 * mark), how many exchanges it replaced, and whether it was sent at all.
 */
export const RecordUseSchema = z.object({
  task: z.string(),
  /** Interaction groups (exchanges) the record used accounts for. */
  covers: z.number().int(),
  replaced: z.number().int(),
  verbatim: z.number().int(),
  /** The record went into the call's messages. */
  shown: z.boolean(),
  /** The record's coverage mark (its version: a later update moves it); absent in reports written before it was kept. */
  through: z.string().optional(),
  /** A compaction summary was in the call's view (it may hold what the record holds); absent in older reports. */
  compacted: z.boolean().optional(),
  /** How the window's budget shaped the step (see MemoryNote); absent when it did not. */
  window: z.enum(["replaced all covered", "record trimmed", "no room"]).optional(),
});
export type RecordUse = z.infer<typeof RecordUseSchema>;

/** What one model call received, for `/rcm why`, the TUI's task panel and the session's savings. */
export const CallReportSchema = z.object({
  messagesBefore: z.number().int().min(0),
  messagesAfter: z.number().int().min(0),
  groups: z.array(GroupTallySchema),
  /** The full history was sent because routing was unsure (or the request was shared or not routed). */
  fallback: z.boolean(),
  reason: z.string(),
  task: z.string().optional(),
  confidence: z.number().optional(),
  /** The routed request the call answered: a later decision about it (a move) postdates the call. */
  requestID: z.string().optional(),
  /** The memory step's summary (record used, groups replaced), when memory is on. */
  memory: z.string().optional(),
  /** The same, for people: the record used, the exchanges it covers, how many it replaced, whether it was shown. */
  record: RecordUseSchema.optional(),
  /** Tasks resumed from earlier sessions whose records from there the call carried. */
  resumed: z.array(z.string()).optional(),
  /** When the call was made, as near as the messages tell: the newest one's creation time (ms since the epoch). */
  at: z.number().optional(),
  /** Estimated tokens the call would have had without the plug-in, and what each step left out. */
  tokens: z.object({
    native: z.number(),
    routingSaved: z.number(),
    memorySaved: z.number(),
    /** Estimated tokens of the messages the call sent (less than native minus the savings when a record cost more than it replaced). */
    sent: z.number().optional(),
  }),
});
export type CallReport = z.infer<typeof CallReportSchema>;

/** Compares the messages before, after narrowing, and after the whole pipeline. Pure. */
export function reportCall(options: {
  view: CallView;
  active: ActiveTask;
  narrowed: ContextPlan;
  final: ContextPlan;
  narrowingReason?: string | undefined;
  memory?: string | undefined;
  record?: CallReport["record"];
  resumed?: readonly string[] | undefined;
  /** A finished group's estimated tokens; the plug-in passes a cached one (groups go whole, so per group). */
  groupTokens?: (group: InteractionGroup, messages: readonly MessageWithParts[]) => number;
  /** Each group's estimated tokens, in the view's groups order, when the caller has them (`groupSizes`). */
  sizes?: readonly number[] | undefined;
}): CallReport {
  const { view, active, narrowed, final } = options;
  const { messages, groups, tasks } = view;
  const sizes = options.sizes ?? groupSizes({ view, groupTokens: options.groupTokens });
  const tallies = new Map<string, GroupTally>();
  const tokens = { native: 0, routingSaved: 0, memorySaved: 0, sent: 0 };
  groups.forEach((group, position) => {
    // The plug-in's own answers (/rcm): shown to the user, never sent, no one's history.
    if (group.indices.every((index) => isIgnoredNote(messages[index]))) return;
    const task = tasks[position];
    const label = task === undefined ? "unassigned" : task.kind === "task" ? task.task : task.why;
    const tally = tallies.get(label) ?? { label, kept: 0, dropped: 0, replaced: 0 };
    const size = sizes[position] ?? 0;
    tokens.native += size;
    if (group.indices.every((index) => narrowed.dropped.has(index))) {
      tally.dropped += 1;
      tokens.routingSaved += size;
    } else if (group.indices.some((index) => final.dropped.has(index))) {
      tally.replaced += 1;
      for (const index of group.indices) if (final.dropped.has(index) && !narrowed.dropped.has(index)) tokens.memorySaved += messageTokens(messages[index]);
    } else tally.kept += 1;
    tallies.set(label, tally);
  });
  const before = new Set([...narrowed.before.values()].flat());
  const inserted = [...final.before.values()].flat().filter((message) => !before.has(message));
  const insertedTokens = inserted.reduce((sum, message) => sum + messageTokens(message), 0);
  tokens.sent = tokens.native - tokens.routingSaved - tokens.memorySaved + insertedTokens;
  tokens.memorySaved = Math.max(0, tokens.memorySaved - insertedTokens);
  const entry = active.kind === "task" ? active.entry : view.current.kind === "routed" ? view.current.entry : undefined;
  const at = newestTime(messages);
  return {
    messagesBefore: messages.length,
    messagesAfter: messages.length - final.dropped.size + inserted.length,
    groups: [...tallies.values()],
    // The full history: unsure and nothing left out (fallback candidates may leave out tasks it surely is not).
    fallback: active.kind === "none" && narrowed.dropped.size === 0,
    reason: options.narrowingReason ?? (active.kind === "none" ? active.reason : `task ${active.task}`),
    task: entry?.task,
    confidence: entry?.confidence,
    ...(view.current.kind === "routed" ? { requestID: view.current.requestID } : {}),
    memory: options.memory,
    ...(options.record ? { record: options.record } : {}),
    ...(options.resumed && options.resumed.length > 0 ? { resumed: [...options.resumed] } : {}),
    ...(at === undefined ? {} : { at }),
    tokens,
  };
}

/**
 * Each group's estimated tokens, in the view's groups order: a finished group's from
 * `groupTokens` (the plug-in passes a cached one; groups go whole, so per group), the latest
 * group's counted anew, since it may still grow during the turn.
 */
export function groupSizes(options: {
  view: Pick<CallView, "groups" | "messages">;
  groupTokens?: ((group: InteractionGroup, messages: readonly MessageWithParts[]) => number) | undefined;
}): number[] {
  const { groups, messages } = options.view;
  const { groupTokens = sumOfMessages } = options;
  return groups.map((group, position) => (position === groups.length - 1 ? sumOfMessages(group, messages) : groupTokens(group, messages)));
}

/** The newest creation time among the messages, if any has one. */
function newestTime(messages: readonly MessageWithParts[]): number | undefined {
  let newest: number | undefined;
  for (const message of messages) {
    const created = message.info.time?.created;
    if (typeof created === "number" && (newest === undefined || created > newest)) newest = created;
  }
  return newest;
}

/** A group's estimated tokens: the sum of its messages'. */
export function sumOfMessages(group: InteractionGroup, messages: readonly MessageWithParts[]): number {
  let total = 0;
  for (const index of group.indices) total += messageTokens(messages[index]);
  return total;
}

/** A user message whose every part is ignored text: OpenCode shows it and never sends it. */
function isIgnoredNote(message: MessageWithParts | undefined): boolean {
  return message?.info.role === "user" && message.parts.length > 0 && message.parts.every((part) => part.type === "text" && part.ignored === true);
}

/** Estimated tokens of the messages a plan sends. */
export function planTokens(messages: readonly MessageWithParts[], plan: ContextPlan): number {
  let total = 0;
  messages.forEach((message, index) => {
    if (!plan.dropped.has(index)) total += messageTokens(message);
    for (const inserted of plan.before.get(index) ?? []) total += messageTokens(inserted);
  });
  return total;
}

/** A message's estimated tokens: its text, reasoning, tool inputs and results. */
export function messageTokens(message: MessageWithParts | undefined): number {
  if (!message) return 0;
  let chars = 0;
  for (const part of message.parts) {
    if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
    else if (part.type === "tool") {
      chars += JSON.stringify(part.state.input ?? {}).length;
      if (part.state.status === "completed") chars += part.state.output.length;
      else if (part.state.status === "error") chars += part.state.error.length;
    }
  }
  return tokensForChars(chars);
}
