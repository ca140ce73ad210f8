import type { PluginInput } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import type { OpencodeModelRef } from "../../../auxiliary/opencode-client.js";
import type { Logger } from "../../../sessions/logger.js";

/**
 * Thrown from `command.execute.before` after the answer is posted. OpenCode 1.18 has no
 * "handled, do not call the model" flag; a throw there stops the command before any user
 * message is stored or any model request is sent, and leaves the session usable. OpenCode
 * logs it as a failed request, which is why its message says what it is.
 */
export class CommandAnswered extends Error {
  override name = "CommandAnswered";
  constructor(command: string) {
    super(`opencode-rcm answered /${command} itself; this stops OpenCode from sending it to the model (not an error)`);
  }
}

/**
 * Shows the answer in the session as a user message whose only part is `ignored`: the TUI
 * draws it, the model never receives it (OpenCode leaves ignored text out), and no reply is
 * asked for. Then stops the command (see CommandAnswered).
 */
export async function deliverCommandAnswer(options: {
  client: PluginInput["client"];
  logger: Logger;
  sessionID: string;
  command: string;
  answer: string;
  model?: OpencodeModelRef | undefined;
  agent?: string | undefined;
}): Promise<never> {
  const { client, logger, sessionID, command, answer, model, agent } = options;
  try {
    const settings = { ...(model ? { model } : {}), ...(agent ? { agent } : {}) };
    await client.session.prompt({ path: { id: sessionID }, body: { noReply: true, ...settings, parts: [{ type: "text", text: answer, ignored: true }] } });
  } catch (error) {
    await logger.log("warn", `could not post the /${command} answer: ${messageOf(error)}`, { sessionID, answer });
  }
  await logger.log("info", `/${command} answered without a model call`, { sessionID });
  throw new CommandAnswered(command);
}
