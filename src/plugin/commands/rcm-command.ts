import { listTasks, showTask } from "../../core/memory/describe-tasks.js";
import type { Options } from "../../config/options-schema.js";
import type { SessionRouting } from "../session-routing.js";
import { describeDecision, renderStatus, renderTaskTable, renderWhy } from "../../session-views/render-status.js";

export const RCM_COMMAND = "rcm";

export const RCM_USAGE = [
  "/rcm [status]          mode, tasks, current task, last decision, tokens saved",
  "/rcm why               what the last model call received, and why",
  "/rcm tasks             the session's tasks with their goals",
  "/rcm show <task>       one task's memory record (e.g. /rcm show t2)",
  "/rcm move <task|new>   the last request belongs to <task> (or a new task) from the next call on",
  "/rcm off | /rcm on     native history for this session / back on",
].join("\n");

/** The config entry that makes `/rcm` a command; its template is never sent (the plug-in answers). */
export const RCM_COMMAND_CONFIG = {
  description: "opencode-rcm: status, why, tasks, show <task>, move <task|new>, off, on",
  template: "opencode-rcm answers this command itself: $ARGUMENTS",
};

/** The answer to `/rcm <args>`, computed without any model. Throws with a usage hint on a bad argument. */
export async function answerRcmCommand(deps: { options: Options; routing?: SessionRouting | undefined }, sessionID: string, args: string): Promise<string> {
  const [verb = "status", ...rest] = args.trim().split(/\s+/).filter(Boolean);
  const { options, routing } = deps;
  if (verb === "help") return RCM_USAGE;
  if (!routing) return renderStatus(options, undefined);
  const state = await routing.snapshot(sessionID);
  switch (verb) {
    case "status":
      return renderStatus(options, state);
    case "why":
      return renderWhy(options, state?.lastCall, state);
    case "tasks":
      return state ? [...renderTaskTable(state.ledger), "", listTasks(state.ledger, state.records)].join("\n") : renderStatus(options, state);
    case "show": {
      if (!state) return renderStatus(options, state);
      const id = rest[0];
      if (!id) throw new UsageError("/rcm show needs a task id, e.g. /rcm show t2");
      return showTask(state.ledger, state.records, id, options.memory.recordTokens, whenRecordWritten(options, id));
    }
    case "move": {
      const target = rest[0];
      if (!target || !/^(t\d+|new)$/.test(target)) throw new UsageError("/rcm move needs a task id or new, e.g. /rcm move t1");
      const moved = await routing.move(sessionID, target === "new" ? { kind: "new" } : { kind: "task", task: target });
      const ledger = (await routing.snapshot(sessionID))?.ledger;
      return `Moved the last request from ${moved.from} to ${moved.task.id}${moved.entry.opened ? " (new task)" : ""} "${moved.task.title}". The next model call gets ${moved.task.id}'s history.${ledger ? `\nNow: ${describeDecision(ledger, moved.entry)}` : ""}`;
    }
    case "off":
      await routing.setOff(sessionID, true);
      return "opencode-rcm is off for this session: the model gets the native history until /rcm on.";
    case "on":
      await routing.setOff(sessionID, false);
      return `opencode-rcm is on again for this session (mode ${options.mode}). Requests sent while it was off are kept in every task's view.`;
    default:
      throw new UsageError(`unknown /rcm command "${verb}"`);
  }
}

/** When a task without a record gets one, as the options have it. */
export function whenRecordWritten(options: Options, task: string): string {
  if (options.mode !== "memory" && options.mode !== "full") return `memory is off in mode ${options.mode}, so tasks get no records (mode memory or full writes them)`;
  const batch = options.memory.replaceBatchTokens.toLocaleString("en");
  return `one is written after a turn of ${task} ends once its exchanges not yet in a record reach ~${batch} tokens (memory.replaceBatchTokens), and before OpenCode compacts the session`;
}

/** A mistyped `/rcm` command: the answer is the message and the usage. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(problem: string) {
    super(`${problem}\n\n${RCM_USAGE}`);
  }
}
