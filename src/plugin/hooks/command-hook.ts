import type { PluginInput } from "@opencode-ai/plugin";
import type { OpencodeModelRef } from "../../auxiliary/opencode-client.js";
import { deliverCommandAnswer } from "./deliver-answer.js";
import type { PluginDeps } from "./deps.js";
import { answerRcmCommand, RCM_COMMAND } from "./rcm-command.js";

/**
 * `command.execute.before`: answers `/rcm` (any other command passes untouched). A failure
 * becomes the answer; either way the command ends there, with no model call.
 */
export function createCommandHook(options: {
  deps: PluginDeps;
  client: PluginInput["client"];
  /** The session's latest model and agent, so the answer is stored with the session's settings. */
  sessionModels: ReadonlyMap<string, OpencodeModelRef>;
  sessionAgents: ReadonlyMap<string, string>;
}) {
  const { deps, client, sessionModels, sessionAgents } = options;
  return async (input: { command: string; sessionID: string; arguments: string }): Promise<void> => {
    if (input.command !== RCM_COMMAND) return;
    const { sessionID } = input;
    let answer: string;
    try {
      answer = await answerRcmCommand(deps, sessionID, input.arguments);
    } catch (error) {
      answer = `opencode-rcm: ${error instanceof Error ? error.message : String(error)}`;
    }
    // Headed by the command line, so consecutive answers read apart in the transcript.
    const line = `/${RCM_COMMAND}${input.arguments.trim() === "" ? "" : ` ${input.arguments.trim()}`}`;
    await deliverCommandAnswer({ client, logger: deps.logger, sessionID, command: RCM_COMMAND, answer: `${line}\n${answer}`, model: sessionModels.get(sessionID), agent: sessionAgents.get(sessionID) });
  };
}
