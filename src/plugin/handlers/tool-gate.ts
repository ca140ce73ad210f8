import type { MessageWithParts } from "../core/messages.js";
import type { Guard } from "../sessions/fail-open-guard.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { SessionState } from "../store/session-state-file.js";

/** One of the plug-in's tools and when a model call may be offered it. */
export interface GatedTool {
  /** The tool's name, as a user message's `tools` map names it. */
  name: string;
  /** From the session's committed state and the call's messages; never asked in a sub-agent session (no tasks tracked). */
  offered(state: SessionState, messages: readonly MessageWithParts[]): boolean;
}

/**
 * Keeps the plug-in's tools out of a model call where they cannot help: their definitions
 * ride on every request otherwise.
 *
 * How, in OpenCode 1.18: the LLM step drops every tool whose id the call's user message maps
 * to `false` in `info.tools`, and that message is the very `info` object the messages
 * transform receives (the latest user message of the list). So the call's user messages get
 * `name: false` here, before the transform handler edits the list; the change is never
 * stored (the next call reads history again), so each call decides afresh, the compaction's
 * "Continue" messages included. Run it before the transform handler on every model call.
 *
 * The prompt cache: tools come before the messages, so offering a tool changes the prefix
 * once. Each tool's rule must only ever go from hidden to offered as a session goes on (tasks
 * are never removed from the ledger), so that is the one miss a session pays; a session that
 * never opens a second task pays none. The user's /rcm off hides them again (the history
 * changes then anyway).
 */
export function createToolGate(deps: { store: SessionStore; guard: Guard; tools: readonly GatedTool[] }) {
  return async (messages: readonly MessageWithParts[]): Promise<void> => {
    const sessionID = messages[0]?.info.sessionID;
    // On failure the tools stay offered, as they always were before the gate: the turn goes on.
    await deps.guard("tool gate", sessionID, async () => {
      if (sessionID === undefined) return;
      // The committed state, not the session's queue: this runs before every model call.
      const state = await deps.store.current(sessionID);
      const called = calledTools(messages);
      const hidden = deps.tools.filter((tool) => !called.has(tool.name) && (state === undefined || !tool.offered(state, messages)));
      if (hidden.length === 0) return;
      const off = Object.fromEntries(hidden.map((tool) => [tool.name, false]));
      for (const { info } of messages) {
        if (info.role === "user") info.tools = { ...info.tools, ...off };
      }
    });
  };
}

/** The tools already called in the history, found in one pass: such a tool stays offered, whatever else (a tool call without its definition confuses models). */
function calledTools(messages: readonly MessageWithParts[]): Set<string> {
  const called = new Set<string>();
  for (const message of messages) for (const part of message.parts) if (part.type === "tool") called.add(part.tool);
  return called;
}
