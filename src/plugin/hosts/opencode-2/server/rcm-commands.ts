import { messageOf } from "../../../../kit/errors/message-of.js";
import type { Rcm } from "../../../handlers/rcm.js";
import { RCM_COMMAND, RCM_TYPED_COMMAND } from "../../../handlers/rcm-command.js";
import { RCM_VERB_LIST } from "../../../session-views/rcm-verbs.js";
import type { Logger } from "../../../sessions/logger.js";
import type { CommandDefinition, PluginContext } from "./api.js";
import { ANSWER_METADATA } from "./stored-messages.js";

/** The first line of every answer: how the context hook knows one (and the person reads which command it answers). */
const ANSWER_HEADER = "opencode-rcm answers ";

/** Whether a request message's text is one of the plug-in's answers. */
export function isAnswerText(text: string): boolean {
  return text.startsWith(ANSWER_HEADER);
}

/** Each command's line in a slash list: in OpenCode 2's TUI the TUI part's `/rcm` opens the menu first. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  [RCM_COMMAND]: `opencode-rcm's answer as text, no model turn: ${RCM_VERB_LIST}`,
  [RCM_TYPED_COMMAND]: `opencode-rcm, no model turn (in the TUI: its menu): ${RCM_VERB_LIST}`,
};

/**
 * `/rcm-text` and `/rcm` as OpenCode 2 commands. OpenCode 2 lets a command finish with no model
 * turn, so both answer at once, in the session, as a synthetic message that starts no turn and
 * that the plug-in's context hook keeps from the model. A failure becomes the answer. In 2.0.15's
 * TUI the TUI part's `/rcm` (a slash command that takes words) runs before this one, so `rcm`
 * answers other clients (`opencode run --command rcm`, the API); the TUI part makes its changes
 * through `/rcm-text` (opencode-2/tui/rcm-menu.ts).
 */
export function rcmCommands(deps: {
  rcm: Pick<Rcm, "command">;
  logger: Logger;
  session: PluginContext["session"];
  answered: Set<string>;
}): CommandDefinition[] {
  const { rcm, logger, session, answered } = deps;
  const command = (name: string): CommandDefinition => ({
    name,
    description: DESCRIPTIONS[name] ?? RCM_VERB_LIST,
    async execute({ sessionID, prompt }) {
      const words = prompt.text.trim();
      const { text: answer } = await rcm.command(sessionID, words);
      const line = `/${name}${words === "" ? "" : ` ${words}`}`;
      try {
        const posted = await session.synthetic({
          sessionID,
          text: `${ANSWER_HEADER}${line}\n${answer}`,
          description: `opencode-rcm: ${line}\n${answer}`,
          metadata: { ...ANSWER_METADATA },
          resume: false,
        });
        answered.add(posted.id);
      } catch (error) {
        await logger.log("warn", `could not post the ${line} answer: ${messageOf(error)}`, { sessionID, answer });
      }
      await logger.log("info", `${line} answered without a model call`, { sessionID });
    },
  });
  return [command(RCM_COMMAND), command(RCM_TYPED_COMMAND)];
}
