import type { GroupKind, InteractionGroup } from "../interaction-groups.js";
import type { MessageWithParts } from "../messages.js";

/** One tool call as the memory sees it: what was asked, how it ended, what it printed. */
export interface ToolCallDigest {
  callID: string;
  /** The assistant message that made the call. */
  messageID: string;
  tool: string;
  status: "pending" | "running" | "completed" | "error";
  input: Record<string, unknown>;
  /** Full output of a completed call; callers that send it anywhere truncate it. */
  output?: string;
  /** Error text of a failed call. */
  error?: string;
  /** Exit code of a bash call, when OpenCode recorded one. */
  exit?: number | null;
}

export type DigestStep = { kind: "text"; messageID: string; text: string } | { kind: "tool"; call: ToolCallDigest };

/** An interaction group flattened for the memory updaters: the request and what answered it. */
export interface GroupDigest {
  /** The group id (the user message id for requests). */
  id: string;
  kind: GroupKind;
  /** The user message id, when the group starts with a user message. */
  requestID?: string;
  /** The user's own words (empty for continuations and orphans). */
  requestText: string;
  /** Assistant text and tool calls, in order. */
  steps: DigestStep[];
  /** Ids of the group's assistant messages. */
  assistantIDs: string[];
  /** Error names of assistant steps that failed (aborts excluded). */
  errors: string[];
  aborted: boolean;
}

/** Flattens groups into digests, in the order given. Pure. */
export function digestGroups(messages: readonly MessageWithParts[], groups: readonly InteractionGroup[]): GroupDigest[] {
  return groups.map((group) => {
    const digest: GroupDigest = {
      id: group.id,
      kind: group.kind,
      requestText: group.requestText,
      steps: [],
      assistantIDs: [],
      errors: [...group.errors],
      aborted: group.aborted,
    };
    for (const index of group.indices) {
      const message = messages[index];
      if (!message) continue;
      if (message.info.role === "user") {
        digest.requestID = message.info.id;
        continue;
      }
      digest.assistantIDs.push(message.info.id);
      for (const part of message.parts) {
        if (part.type === "text" && !part.synthetic && part.text.trim() !== "") {
          digest.steps.push({ kind: "text", messageID: message.info.id, text: part.text });
        } else if (part.type === "tool") {
          digest.steps.push({ kind: "tool", call: toolCallDigest(message.info.id, part) });
        }
      }
    }
    return digest;
  });
}

function toolCallDigest(messageID: string, part: Extract<MessageWithParts["parts"][number], { type: "tool" }>): ToolCallDigest {
  const { state } = part;
  const call: ToolCallDigest = { callID: part.callID, messageID, tool: part.tool, status: state.status, input: state.input ?? {} };
  if (state.status === "completed") call.output = state.output;
  if (state.status === "error") call.error = state.error;
  const metadata: Record<string, unknown> | undefined = "metadata" in state ? state.metadata : undefined;
  const exit = metadata?.exit;
  if (typeof exit === "number" || exit === null) call.exit = exit;
  return call;
}

/** Every tool call in the digests. */
export function toolCallsOf(groups: readonly GroupDigest[]): ToolCallDigest[] {
  return groups.flatMap((group) => group.steps.flatMap((step) => (step.kind === "tool" ? [step.call] : [])));
}
