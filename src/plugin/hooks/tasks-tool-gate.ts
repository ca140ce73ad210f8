import type { MessageWithParts } from "../../core/messages.js";
import type { Guard } from "../sessions/fail-open-guard.js";
import type { SessionStore } from "../sessions/session-store.js";
import { TASKS_TOOL } from "./tasks-tool.js";

/** `rcm_tasks` reads other tasks' records: with fewer tasks than this it has nothing to show. */
const TASKS_WORTH_THE_TOOL = 2;

/**
 * Keeps `rcm_tasks` out of a model call where it cannot help: a session with one task, or a
 * sub-agent session (no tasks tracked). Its definition rides on every request otherwise.
 *
 * How, in OpenCode 1.18: the LLM step drops every tool whose id the call's user message maps
 * to `false` in `info.tools`, and that message is the very `info` object the messages
 * transform receives (the latest user message of the list). So the call's user messages get
 * `rcm_tasks: false` here, before the transform handler edits the list; the change is never
 * stored (the next call reads history again), so each call decides afresh, the compaction's
 * "Continue" messages included. Run it before the transform handler on every model call.
 *
 * The prompt cache: tools come before the messages, so offering the tool changes the prefix
 * once, at the first call after a second task opens (in mode memory, after the first
 * compaction, which changed the prefix anyway). The decision only ever goes from hidden
 * to offered (tasks are never removed from the ledger), so that is the one miss a session
 * pays; a session that never opens a second task pays none.
 */
export function createTasksToolGate(deps: {
  store: SessionStore;
  guard: Guard;
  /**
   * Mode memory leaves every task's history in view: the tool can help only once a compaction
   * took some of it out, and that compaction has already changed the prefix.
   */
  afterCompactionOnly: boolean;
}) {
  return async (messages: readonly MessageWithParts[]): Promise<void> => {
    const sessionID = messages[0]?.info.sessionID;
    // On failure the tool stays offered, as it always was before the gate: the turn goes on.
    await deps.guard("tasks tool", sessionID, async () => {
      if (sessionID === undefined) return;
      // A call already in the history keeps its tool, whatever else: a tool call without its definition confuses models.
      if (calledBefore(messages)) return;
      // The committed state, not the session's queue: this runs before every model call.
      const call = await deps.store.current(sessionID);
      const outOfView = !deps.afterCompactionOnly || compacted(messages);
      if (call !== undefined && call.ledger.tasks.length >= TASKS_WORTH_THE_TOOL && outOfView) return;
      for (const { info } of messages) {
        if (info.role === "user") info.tools = { ...info.tools, [TASKS_TOOL]: false };
      }
    });
  };
}

function compacted(messages: readonly MessageWithParts[]): boolean {
  return messages.some((message) => message.parts.some((part) => part.type === "compaction"));
}

function calledBefore(messages: readonly MessageWithParts[]): boolean {
  return messages.some((message) => message.parts.some((part) => part.type === "tool" && part.tool === TASKS_TOOL));
}
