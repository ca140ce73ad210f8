import type { InteractionGroup } from "./interaction-groups.js";
import type { MessageWithParts, TextPart } from "./messages.js";
import type { TaskHistorySelection } from "./routing/select-task-history.js";

/** The line the debug option adds, so a test (or a curious user) can see the plug-in ran. */
export function renderDebugAnnotation(options: {
  mode: string;
  groups: readonly InteractionGroup[];
  messageCount: number;
  selection?: TaskHistorySelection | undefined;
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
  const selection = options.selection;
  const memory = options.memory === undefined ? "" : ` memory: ${options.memory}`;
  if (!selection) return `${line}${memory}`;
  const routed = selection.task === undefined ? "" : ` task=${selection.task} confidence=${selection.confidence}`;
  return `${line}${routed} kept=${selection.keptGroups}/${selection.totalGroups} (${selection.reason})${memory}`;
}

/**
 * Returns a copy of `messages` whose last user message carries `text` as an extra synthetic
 * part. The input is not modified.
 */
export function withDebugAnnotation(messages: readonly MessageWithParts[], text: string): MessageWithParts[] {
  const last = messages.findLastIndex((message) => message.info.role === "user");
  if (last < 0) return [...messages];
  return messages.map((message, index) => {
    if (index !== last) return message;
    const part: TextPart = {
      id: "rcm-debug",
      sessionID: message.info.sessionID,
      messageID: message.info.id,
      type: "text",
      text,
      synthetic: true,
    };
    return { info: message.info, parts: [...message.parts, part] };
  });
}
