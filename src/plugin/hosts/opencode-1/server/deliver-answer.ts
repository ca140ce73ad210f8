import type { PluginInput } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import type { OpencodeModelRef } from "../../../auxiliary/opencode-client.js";
import { RCM_COMMAND } from "../../../handlers/rcm-command.js";
import type { Logger } from "../../../sessions/logger.js";

/**
 * Thrown from `command.execute.before` after the answer is posted. OpenCode 1.18 has no
 * "handled, do not call the model" flag; a throw there stops the command before any user
 * message is stored or any model request is sent, and leaves the session usable. OpenCode
 * logs it as a failed request (an ERROR line) and answers the client's HTTP request with 500,
 * which is why its message says what it is, that it is expected, and where the answer went.
 */
export class CommandAnswered extends Error {
  override name = "CommandAnswered";
  constructor(command: string, where: "session" | "tui") {
    super(
      `expected, not a failure: opencode-rcm answered /${command} itself (${where === "tui" ? "in the terminal UI's dialog" : `in the session, as a message the model never gets`}); OpenCode 1.18 can stop a command before the model only with an error, hence this line and HTTP 500 to the client${command === RCM_COMMAND ? "" : `; web, desktop and opencode run: /${RCM_COMMAND}`}`,
    );
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
  throw new CommandAnswered(command, "session");
}
