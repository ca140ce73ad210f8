import type { PluginInput } from "@opencode-ai/plugin";
import { messageOf } from "../../../../kit/errors/message-of.js";
import { AuxError } from "../../../auxiliary/aux-error.js";
import type { OpencodeModelRef, OpencodeModels } from "../../../auxiliary/opencode-client.js";

/** The hidden agent that answers the plug-in's own calls through OpenCode (registered in the `config` hook). */
export const AUX_AGENT = "rcm-aux";

/** The agent's definition: a sub-agent nobody sees or picks, with no tools and no permissions. */
export const AUX_AGENT_CONFIG = {
  description: "opencode-rcm's helper: routes requests to tasks and writes task records. Not for direct use.",
  mode: "subagent",
  hidden: true,
  prompt: "You are a helper of the opencode-rcm plug-in. Follow the instructions you are given and reply with exactly one JSON object.",
  permission: { edit: "deny", bash: "deny", webfetch: "deny" },
} as const;

/** Title of the short-lived child sessions, so they are recognisable in the rare case one outlives its call. */
const CHILD_TITLE = "opencode-rcm aux call";

/**
 * The user's own models through OpenCode: each call runs in a child session of the session
 * it is made for, with the hidden agent and every tool off, and the child is deleted in any
 * case. A call that outlives `timeoutMs` is aborted.
 */
export function clientModels(client: PluginInput["client"], sessionModel: (sessionID: string) => OpencodeModelRef | undefined): OpencodeModels {
  return {
    async ask({ parentID, model, system, text, timeoutMs }) {
      const created = await client.session.create({ body: { parentID, title: CHILD_TITLE } }).catch((error: unknown) => {
        throw new AuxError({ code: "http", message: `OpenCode could not create the aux session: ${messageOf(error)}`, cause: error });
      });
      const childID = created.data?.id;
      if (childID === undefined)
        throw new AuxError({ code: "http", message: `OpenCode could not create the aux session: ${JSON.stringify(created.error ?? null)}` });
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      try {
        const response = await client.session.prompt({
          path: { id: childID },
          body: { agent: AUX_AGENT, model, system, tools: { "*": false }, parts: [{ type: "text", text }] },
          signal: controller.signal,
        });
        if (response.error !== undefined || response.data === undefined) {
          throw new AuxError({
            code: "http",
            message: `OpenCode answered the aux prompt with an error: ${JSON.stringify(response.error ?? null).slice(0, 300)}`,
          });
        }
        const { info, parts } = response.data;
        if (info.error)
          throw new AuxError({ code: "http", message: `${model.providerID}/${model.modelID} failed: ${JSON.stringify(info.error).slice(0, 300)}` });
        const reply = parts.map((part) => (part.type === "text" && !part.synthetic ? part.text : "")).join("");
        const { input, output, cache } = info.tokens;
        return { text: reply, inputTokens: input + cache.read + cache.write, outputTokens: output };
      } catch (error) {
        if (timedOut)
          throw new AuxError({ code: "timeout", message: `${model.providerID}/${model.modelID} gave no answer within ${timeoutMs} ms`, cause: error });
        if (error instanceof AuxError) throw error;
        throw new AuxError({ code: "http", message: `the aux prompt through OpenCode failed: ${messageOf(error)}`, cause: error });
      } finally {
        clearTimeout(timer);
        if (timedOut) await client.session.abort({ path: { id: childID } }).catch(() => undefined);
        await client.session.delete({ path: { id: childID } }).catch(() => undefined);
      }
    },
    async smallModel() {
      const config = await client.config.get();
      return config.data?.small_model;
    },
    async sessionModel(sessionID) {
      const known = sessionModel(sessionID);
      if (known) return known;
      const response = await client.session.messages({ path: { id: sessionID } });
      const last = (response.data ?? []).findLast((message) => message.info.role === "user");
      return last?.info.role === "user" ? last.info.model : undefined;
    },
  };
}
