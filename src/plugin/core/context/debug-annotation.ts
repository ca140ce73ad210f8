import type { InteractionGroup } from "../interaction-groups.js";
import type { TextPart } from "../messages.js";
import type { CallView } from "./call-view.js";
import { type ContextPlan, keptIndices, withAppended } from "./context-plan.js";
import type { NarrowingNote } from "./narrow-to-task.js";

/** The line the debug option adds, so a test (or a curious user) can see the plug-in ran. */
export function renderDebugAnnotation(options: {
  mode: string;
  groups: readonly InteractionGroup[];
  messageCount: number;
  narrowing?: NarrowingNote | undefined;
  /** What the memory did: the record used and the exchanges it replaced, or why none. */
  memory?: string | undefined;
}): string {
  const counts = new Map<string, number>();
  for (const group of options.groups) counts.set(group.kind, (counts.get(group.kind) ?? 0) + 1);
  const kinds = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, count]) => `${kind}=${count}`)
    .join(" ");
  const line = `[opencode-rcm debug] mode=${options.mode} messages=${options.messageCount} groups=${options.groups.length} (${kinds})`;
  const narrowing = options.narrowing;
  const memory = options.memory === undefined ? "" : ` memory: ${options.memory}`;
  if (!narrowing) return `${line}${memory}`;
  const routed = narrowing.task === undefined ? "" : ` task=${narrowing.task} confidence=${narrowing.confidence}`;
  return `${line}${routed} kept=${narrowing.keptGroups}/${narrowing.totalGroups} (${narrowing.reason})${memory}`;
}

/** Step: adds `text` as a synthetic part of the last user message that stays in the context. */
export function annotateForDebug(options: { view: CallView; plan: ContextPlan; text: string }): ContextPlan {
  const { view, plan, text } = options;
  const last = keptIndices(view.messages.length, plan).findLast((index) => view.messages[index]?.info.role === "user");
  const message = last === undefined ? undefined : view.messages[last];
  if (last === undefined || !message) return plan;
  const part: TextPart = { id: "rcm-debug", sessionID: message.info.sessionID, messageID: message.info.id, type: "text", text, synthetic: true };
  return withAppended(plan, last, part);
}
