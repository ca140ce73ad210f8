import { messageOf } from "../../../../kit/errors/message-of.js";
import { AuxError } from "../../../auxiliary/aux-error.js";
import type { OpencodeModelRef, OpencodeModels } from "../../../auxiliary/opencode-client.js";
import { estimateTokens } from "../../../core/memory/estimate-tokens.js";
import type { PluginContext } from "./api.js";

/**
 * The user's own models through OpenCode 2's `ctx.generate.text`: one prompt, no session, no
 * tools. 2.0.15 takes no system text and reports no token counts: the instructions lead the
 * prompt, and the counts are estimated. OpenCode 2 has no `small_model`.
 */
export function generateModels(ctx: Pick<PluginContext, "generate" | "session">, latest: (sessionID: string) => OpencodeModelRef | undefined): OpencodeModels {
  return {
    async ask({ model, system, text, timeoutMs }) {
      const prompt = `${system}\n\n${text}`;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AuxError({ code: "timeout", message: `${model.providerID}/${model.modelID} gave no answer within ${timeoutMs} ms` })),
          timeoutMs,
        );
      });
      try {
        const { text: reply } = await Promise.race([ctx.generate.text({ prompt, model: { id: model.modelID, providerID: model.providerID } }), timeout]);
        return { text: reply, inputTokens: estimateTokens(prompt), outputTokens: estimateTokens(reply) };
      } catch (error) {
        if (error instanceof AuxError) throw error;
        throw new AuxError({ code: "http", message: `${model.providerID}/${model.modelID} through OpenCode 2 failed: ${messageOf(error)}`, cause: error });
      } finally {
        clearTimeout(timer);
      }
    },
    async smallModel() {
      return undefined;
    },
    async sessionModel(sessionID) {
      const known = latest(sessionID);
      if (known) return known;
      const stored = await ctx.session.context({ sessionID });
      const last = stored.findLast((message) => message.type === "assistant" && "model" in message);
      return last && "model" in last ? { providerID: last.model.providerID, modelID: last.model.id } : undefined;
    },
  };
}
