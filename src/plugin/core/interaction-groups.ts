import type { MessageWithParts, Part, ToolPart } from "./messages.js";

/**
 * What started a group:
 * - `request`: a user request with text or files of its own;
 * - `continuation`: a user message with only synthetic text (OpenCode's "continue"
 *   after compaction or an abort), which carries no new requirement;
 * - `compaction`: the compaction marker and the summary that answers it;
 * - `orphan`: assistant messages whose user message is not in the array (cut off by
 *   compaction, or a sub-agent's history), kept together so nothing is lost.
 */
export type GroupKind = "request" | "continuation" | "compaction" | "orphan";

export interface ToolCallSummary {
  callID: string;
  tool: string;
  status: ToolPart["state"]["status"];
  input: Record<string, unknown>;
}

/** A user request and every assistant step (with tool calls and results) that answers it. */
export interface InteractionGroup {
  /** The user message id; for orphans, `orphan:<parentID>`. */
  id: string;
  kind: GroupKind;
  sessionID: string;
  /** Positions of the group's messages in the input array, ascending. */
  indices: number[];
  /** The user's own words: non-synthetic, non-ignored text parts, joined by blank lines. */
  requestText: string;
  toolCalls: ToolCallSummary[];
  /** True if an assistant step of the group ended with an abort. */
  aborted: boolean;
  /** Error names of assistant steps that failed for another reason. */
  errors: string[];
  /** Sub-agent sessions started from this group (task tool calls, subtask parts). */
  subagentSessionIDs: string[];
}

/**
 * Derives interaction groups from a session's messages, oldest first. Every message
 * belongs to exactly one group; groups are ordered by their first message. Pure: the
 * input is not modified.
 */
export function toInteractionGroups(messages: readonly MessageWithParts[]): InteractionGroup[] {
  return groupsAfter(messages, 0, []) ?? [];
}

/**
 * The groups of `messages`, given `before`: the groups of its first messages as a fresh
 * grouping makes them, which hold every message before `start` and none after it. The groups
 * of `messages[start..]` follow them, exactly as `toInteractionGroups` would make them; undefined
 * when a message from `start` on belongs to one of `before` (its turn went on), which must then
 * be grouped anew. `before`'s groups are returned as they are, not copied.
 */
export function groupsAfter(messages: readonly MessageWithParts[], start: number, before: readonly InteractionGroup[]): InteractionGroup[] | undefined {
  const groups: InteractionGroup[] = [...before];
  const earlier = before.length === 0 ? undefined : new Set(before.map((group) => group.id));
  const byId = new Map<string, InteractionGroup>();

  for (let index = start; index < messages.length; index += 1) {
    const message = messages[index] as MessageWithParts;
    const { info } = message;
    if (info.role === "user") {
      if (earlier?.has(info.id)) return undefined;
      const group = newGroup(info.id, userGroupKind(message.parts), info.sessionID);
      group.requestText = userRequestText(message.parts);
      groups.push(group);
      byId.set(info.id, group);
      addMessage(group, message, index);
      continue;
    }
    // As one lookup over every group would find it: the request's own group first, then its orphans'.
    if (earlier?.has(info.parentID)) return undefined;
    let group = byId.get(info.parentID);
    if (!group) {
      const orphanID = orphanGroupID(info.parentID);
      if (earlier?.has(orphanID)) return undefined;
      group = byId.get(orphanID);
      if (!group) {
        group = newGroup(orphanID, "orphan", info.sessionID);
        groups.push(group);
        byId.set(group.id, group);
      }
    }
    if (info.summary === true) group.kind = "compaction";
    addMessage(group, message, index);
    if (info.error) {
      if (info.error.name === "MessageAbortedError") group.aborted = true;
      else group.errors.push(info.error.name);
    }
  }
  return groups;
}

const ORPHAN_PREFIX = "orphan:";

/** The id of the group of assistant steps whose request (`parentID`) is not in view. */
function orphanGroupID(parentID: string): string {
  return `${ORPHAN_PREFIX}${parentID}`;
}

/**
 * The user message a group stands for in the ledger and in records: its own user message,
 * or, for an orphan, the request its steps answer (cut off by compaction, still routed).
 */
export function groupRequestID(group: Pick<InteractionGroup, "id" | "kind">): string {
  return group.kind === "orphan" && group.id.startsWith(ORPHAN_PREFIX) ? group.id.slice(ORPHAN_PREFIX.length) : group.id;
}

function newGroup(id: string, kind: GroupKind, sessionID: string): InteractionGroup {
  return {
    id,
    kind,
    sessionID,
    indices: [],
    requestText: "",
    toolCalls: [],
    aborted: false,
    errors: [],
    subagentSessionIDs: [],
  };
}

function userGroupKind(parts: readonly Part[]): GroupKind {
  let ownContent = false;
  for (const part of parts) {
    if (part.type === "compaction") return "compaction";
    if (part.type === "file" || part.type === "subtask" || part.type === "agent" || isOwnText(part)) ownContent = true;
  }
  return ownContent ? "request" : "continuation";
}

function isOwnText(part: Part): part is Extract<Part, { type: "text" }> {
  return part.type === "text" && !part.synthetic && !part.ignored && part.text.trim() !== "";
}

/** The user's own words in a message: text parts that are neither synthetic nor ignored. */
export function userRequestText(parts: readonly Part[]): string {
  // A plain loop: this runs for every user message at every model call.
  const texts: string[] = [];
  for (const part of parts) if (isOwnText(part)) texts.push(part.text);
  return texts.join("\n\n");
}

function addMessage(group: InteractionGroup, message: MessageWithParts, index: number): void {
  group.indices.push(index);
  for (const part of message.parts) {
    if (part.type === "tool") {
      group.toolCalls.push({
        callID: part.callID,
        tool: part.tool,
        status: part.state.status,
        input: part.state.input,
      });
      const child = subagentSessionID(part);
      if (child) group.subagentSessionIDs.push(child);
    }
  }
}

// The task tool records the child session in its metadata once it has started one.
function subagentSessionID(part: ToolPart): string | undefined {
  if (part.tool !== "task") return undefined;
  const metadata: Record<string, unknown> | undefined = "metadata" in part.state ? part.state.metadata : undefined;
  const id = metadata?.sessionId;
  return typeof id === "string" ? id : undefined;
}
