import type { Options } from "../../config/options-schema.js";
import { RCM_VERBS, rcmVerb } from "../../session-views/rcm-verbs.js";
import { describeDecision, renderStatus } from "../../session-views/render-status.js";
import type { SessionRouting } from "../sessions/session-routing.js";
import type { SessionStore } from "../sessions/session-store.js";

/**
 * The server's command, for clients without the TUI part (web, desktop, `opencode run`). Not
 * `rcm`: the TUI sends a typed `/rcm ...` to a server command of that name before its own,
 * and the TUI part's `/rcm` runs with no request that can fail.
 */
export const RCM_COMMAND = "rcm-text";

/** The usage, from the verbs' list: a verb added there is listed here. */
export const RCM_USAGE = RCM_VERBS.map((verb) => `${`/${RCM_COMMAND} ${verb.name}${verb.argument ? ` ${verb.argument}` : ""}`.padEnd(28)}${verb.help}`).join("\n");

/** The config entry that makes `/rcm-text` a command; its template is never sent (the plug-in answers). */
export const RCM_COMMAND_CONFIG = {
  description: `opencode-rcm as a message (web, desktop, opencode run): ${RCM_VERBS.map((verb) => `${verb.name}${verb.argument ? ` ${verb.argument}` : ""}`).join(", ")}`,
  template: "opencode-rcm answers this command itself: $ARGUMENTS",
};

/** The answer to `/rcm <args>`, computed without any model. Throws with a usage hint on a bad argument. */
export async function answerRcmCommand(deps: { options: Options; store?: SessionStore | undefined; routing?: SessionRouting | undefined }, sessionID: string, args: string): Promise<string> {
  const [name = "status", ...rest] = args.trim().split(/\s+/).filter(Boolean);
  const { options, store, routing } = deps;
  if (name === "help") return RCM_USAGE;
  const words = { onCommand: `/${RCM_COMMAND} on`, absent: "leaves this sub-agent session untouched" };
  if (!store || !routing) return renderStatus(options, undefined, words);
  const verb = rcmVerb(name);
  if (!verb) throw new UsageError(`unknown /${RCM_COMMAND} command "${name}"`);
  const state = await store.read(sessionID);
  const argument = rest[0];
  if (verb.kind === "read") {
    if (verb.argument && state && !argument) throw new UsageError(`/${RCM_COMMAND} ${verb.name} needs a task id, e.g. /${RCM_COMMAND} ${verb.name} t2`);
    return verb.answer({ options, state, words }, argument);
  }
  switch (verb.name) {
    case "move": {
      if (!argument || !/^(t\d+|new)$/.test(argument)) throw new UsageError(`/${RCM_COMMAND} move needs a task id or new, e.g. /${RCM_COMMAND} move t1`);
      const moved = await routing.move(sessionID, argument === "new" ? { kind: "new" } : { kind: "task", task: argument });
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
      throw new Error(`/${RCM_COMMAND} ${verb.name}: a change the server does not apply yet`);
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
