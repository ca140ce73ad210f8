import type { PluginInput } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import type { Rcm } from "../../../handlers/rcm.js";
import { RCM_COMMAND, RCM_TYPED_COMMAND } from "../../../handlers/rcm-command.js";
import type { Logger } from "../../../sessions/logger.js";
import { liveScreenMarkers } from "../../../store/screen-markers.js";
import { leaveTypedVerb, TYPED_VERB_COMMAND } from "../../../store/typed-verb-file.js";
import { CommandAnswered, deliverCommandAnswer } from "./deliver-answer.js";

/**
 * `command.execute.before`: answers `/rcm-text`, and hands a typed `/rcm ...` to the TUI
 * (any other command passes untouched). A failure becomes the answer; either way the command
 * ends there, with no model call.
 */
export function createCommandHook(options: {
  rcm: Pick<Rcm, "command">;
  logger: Logger;
  client: PluginInput["client"];
  /** Where a typed `/rcm`'s words wait for the TUI part. */
  stateDir: string;
}) {
  const { rcm, logger, client, stateDir } = options;
  return async (input: { command: string; sessionID: string; arguments: string }): Promise<void> => {
    if (input.command === RCM_TYPED_COMMAND) {
      // No terminal UI shows the session (a web or desktop client sent it): /rcm-text's answer, in the session.
      if (!(await shownInTui(stateDir, input.sessionID))) return answerInSession(input, TYPED_ELSEWHERE);
      return handToTui(client, logger, stateDir, input.sessionID, input.arguments);
    }
    if (input.command !== RCM_COMMAND) return;
    return answerInSession(input);
  };

  async function answerInSession(input: { command: string; sessionID: string; arguments: string }, note?: string): Promise<never> {
    const { sessionID } = input;
    // The answer is stored with the session's latest model and agent, so the session keeps its settings.
    const { text: answer, model, agent } = await rcm.command(sessionID, input.arguments);
    // Headed by the command line, so consecutive answers read apart in the transcript.
    const line = `/${input.command}${input.arguments.trim() === "" ? "" : ` ${input.arguments.trim()}`}`;
    return deliverCommandAnswer({
      client,
      logger,
      sessionID,
      command: input.command,
      answer: [line, ...(note ? [note] : []), answer].join("\n"),
      model,
      agent,
    });
  }
}

/** What a typed `/rcm` answered in the session says first: where `/rcm` answers, and which command to use here. */
const TYPED_ELSEWHERE = `(/${RCM_TYPED_COMMAND} answers in a dialog of the terminal UI, and no terminal UI shows this session: answered as /${RCM_COMMAND}, the command for this client)`;

/** Whether a running terminal UI with the plug-in's TUI part shows the session (its screen marker says so). */
async function shownInTui(stateDir: string, sessionID: string): Promise<boolean> {
  try {
    return (await liveScreenMarkers(stateDir)).some((marker) => marker.sessionID === sessionID);
  } catch {
    // Unreadable: the TUI path, as before.
    return true;
  }
}

/**
 * A typed `/rcm <words>`: the TUI part answers it on screen (a dialog, as its menu does), so
 * nothing is stored in the session; then the command stops before any message or model call
 * (OpenCode logs that stop as a failed request: 1.18 has no other way to end a command).
 */
async function handToTui(client: PluginInput["client"], logger: Logger, stateDir: string, sessionID: string, words: string): Promise<never> {
  try {
    await leaveTypedVerb(stateDir, sessionID, words.trim());
    // Published as the event itself: `tui.executeCommand` keeps only the TUI's own command names.
    await client.tui.publish({ body: { type: "tui.command.execute", properties: { command: TYPED_VERB_COMMAND } }, throwOnError: true });
    await logger.log("info", `/${RCM_TYPED_COMMAND} ${words.trim()}: handed to the TUI, without a model call`, { sessionID });
  } catch (error) {
    await logger.log("warn", `/${RCM_TYPED_COMMAND} ${words.trim()}: could not reach the TUI (${messageOf(error)}); /${RCM_COMMAND} answers in the session`, {
      sessionID,
    });
  }
  throw new CommandAnswered(RCM_TYPED_COMMAND, "tui");
}
