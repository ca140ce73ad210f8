import type { Options } from "../../config/options-schema.js";
import { listTasks, showTask } from "../../core/memory/describe-tasks.js";
import { describeDecision, renderStatus, renderTaskTable, renderWhy, whenRecordWritten } from "../../session-views/render-status.js";
import type { SessionRouting } from "../sessions/session-routing.js";
import type { SessionStore } from "../sessions/session-store.js";

/**
 * The server's command, for clients without the TUI part (web, desktop, `opencode run`). Not
 * `rcm`: the TUI sends a typed `/rcm ...` to a server command of that name before its own,
 * and the TUI part's `/rcm` runs with no request that can fail.
 */
export const RCM_COMMAND = "rcm-text";

export const RCM_USAGE = [
  "/rcm-text [status]          mode, tasks, current task, last decision, tokens saved",
  "/rcm-text why               what the last model call received, and why",
  "/rcm-text tasks             the session's tasks with their goals",
  "/rcm-text show <task>       one task's memory record (e.g. /rcm-text show t2)",
  "/rcm-text move <task|new>   the last request belongs to <task> (or a new task) from the next call on",
  "/rcm-text off | on          native history for this session / back on",
].join("\n");

/** The config entry that makes `/rcm-text` a command; its template is never sent (the plug-in answers). */
export const RCM_COMMAND_CONFIG = {
  description: "opencode-rcm as a message (web, desktop, opencode run): status, why, tasks, show <task>, move <task|new>, off, on",
  template: "opencode-rcm answers this command itself: $ARGUMENTS",
};

/** The answer to `/rcm <args>`, computed without any model. Throws with a usage hint on a bad argument. */
export async function answerRcmCommand(deps: { options: Options; store?: SessionStore | undefined; routing?: SessionRouting | undefined }, sessionID: string, args: string): Promise<string> {
  const [verb = "status", ...rest] = args.trim().split(/\s+/).filter(Boolean);
  const { options, store, routing } = deps;
  if (verb === "help") return RCM_USAGE;
  const words = { onCommand: `/${RCM_COMMAND} on`, absent: "leaves this sub-agent session untouched" };
  if (!store || !routing) return renderStatus(options, undefined, words);
  const state = await store.read(sessionID);
  switch (verb) {
    case "status":
      return renderStatus(options, state, words);
    case "why":
      return renderWhy(options, state?.lastCall, state, words);
    case "tasks":
      return state ? [...renderTaskTable(state.ledger), "", listTasks(state.ledger, state.records)].join("\n") : renderStatus(options, state, words);
    case "show": {
      if (!state) return renderStatus(options, state, words);
      const id = rest[0];
      if (!id) throw new UsageError(`/${RCM_COMMAND} show needs a task id, e.g. /${RCM_COMMAND} show t2`);
      return showTask(state.ledger, state.records, id, options.memory.recordTokens, whenRecordWritten(options, id));
    }
    case "move": {
      const target = rest[0];
      if (!target || !/^(t\d+|new)$/.test(target)) throw new UsageError(`/${RCM_COMMAND} move needs a task id or new, e.g. /${RCM_COMMAND} move t1`);
      const moved = await routing.move(sessionID, target === "new" ? { kind: "new" } : { kind: "task", task: target });
      const ledger = (await store.read(sessionID))?.ledger;
      return `Moved the last request from ${moved.from} to ${moved.task.id}${moved.entry.opened ? " (new task)" : ""} "${moved.task.title}". The next model call gets ${moved.task.id}'s history.${ledger ? `\nNow: ${describeDecision(ledger, moved.entry)}` : ""}`;
    }
    case "off":
      await setOff(store, sessionID, true);
      return `opencode-rcm is off for this session: the model gets the native history until /${RCM_COMMAND} on.`;
    case "on":
      await setOff(store, sessionID, false);
      return `opencode-rcm is on again for this session (mode ${options.mode}). Requests sent while it was off are kept in every task's view.`;
    default:
      throw new UsageError(`unknown /${RCM_COMMAND} command "${verb}"`);
  }
}

/** `/rcm off` and `/rcm on`, persisted with the session (a sub-agent session is left alone). */
async function setOff(store: SessionStore, sessionID: string, off: boolean): Promise<void> {
  await store.step(sessionID, async (session) => {
    if (!session.subagent) await store.switchOff(session, off);
  });
}

/** A mistyped `/rcm` command: the answer is the message and the usage. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(problem: string) {
    super(`${problem}\n\n${RCM_USAGE}`);
  }
}
