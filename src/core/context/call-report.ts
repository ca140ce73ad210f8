import { tokensForChars } from "../memory/estimate-tokens.js";
import type { MessageWithParts } from "../messages.js";
import type { ActiveTask, CallView } from "./call-view.js";
import type { ContextPlan } from "./context-plan.js";

/** Where one task's groups went in a model call. */
export interface GroupTally {
  /** A task id, or `shared`, `unassigned`, `compaction`. */
  label: string;
  kept: number;
  /** Left out: another task's. */
  dropped: number;
  /** The request stayed; its exchange was replaced by the record. */
  replaced: number;
}

/** What one model call received, for `/rcm why` and the session's savings. */
export interface CallReport {
  messagesBefore: number;
  messagesAfter: number;
  groups: GroupTally[];
  /** The full history was sent because routing was unsure (or the request was shared or not routed). */
  fallback: boolean;
  reason: string;
  task?: string | undefined;
  confidence?: number | undefined;
  /** The memory step's summary (record used, groups replaced), when memory is on. */
  memory?: string | undefined;
  /** Estimated tokens the call would have had without the plug-in, and what each step left out. */
  tokens: { native: number; routingSaved: number; memorySaved: number };
}

/** Compares the messages before, after narrowing, and after the whole pipeline. Pure. */
export function reportCall(options: {
  view: CallView;
  active: ActiveTask;
  narrowed: ContextPlan;
  final: ContextPlan;
  narrowingReason?: string | undefined;
  memory?: string | undefined;
}): CallReport {
  const { view, active, narrowed, final } = options;
  const { messages, groups, tasks } = view;
  const tallies = new Map<string, GroupTally>();
  groups.forEach((group, position) => {
    // The plug-in's own answers (/rcm): shown to the user, never sent, no one's history.
    if (group.indices.every((index) => isIgnoredNote(messages[index]))) return;
    const task = tasks[position];
    const label = task === undefined ? "unassigned" : task.kind === "task" ? task.task : task.why;
    const tally = tallies.get(label) ?? { label, kept: 0, dropped: 0, replaced: 0 };
    if (group.indices.every((index) => narrowed.dropped.has(index))) tally.dropped += 1;
    else if (group.indices.some((index) => final.dropped.has(index))) tally.replaced += 1;
    else tally.kept += 1;
    tallies.set(label, tally);
  });
  const tokensOf = (indices: Iterable<number>): number => {
    let total = 0;
    for (const index of indices) total += messageTokens(messages[index]);
    return total;
  };
  const byMemory = [...final.dropped].filter((index) => !narrowed.dropped.has(index));
  const inserted = [...final.before.values()].flat().filter((message) => ![...narrowed.before.values()].flat().includes(message));
  const insertedTokens = inserted.reduce((sum, message) => sum + messageTokens(message), 0);
  const entry = active.kind === "task" ? active.entry : view.current.kind === "routed" ? view.current.entry : undefined;
  return {
    messagesBefore: messages.length,
    messagesAfter: messages.length - final.dropped.size + inserted.length,
    groups: [...tallies.values()],
    fallback: active.kind === "none",
    reason: options.narrowingReason ?? (active.kind === "none" ? active.reason : `task ${active.task}`),
    task: entry?.task,
    confidence: entry?.confidence,
    memory: options.memory,
    tokens: {
      native: tokensOf(messages.keys()),
      routingSaved: tokensOf(narrowed.dropped),
      memorySaved: Math.max(0, tokensOf(byMemory) - insertedTokens),
    },
  };
}

/** A user message whose every part is ignored text: OpenCode shows it and never sends it. */
function isIgnoredNote(message: MessageWithParts | undefined): boolean {
  return message?.info.role === "user" && message.parts.length > 0 && message.parts.every((part) => part.type === "text" && part.ignored === true);
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
