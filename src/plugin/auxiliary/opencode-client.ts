import type { AuxClient } from "./aux-client.js";
import { AuxError } from "./aux-error.js";
import { createAuxHealth } from "./aux-health.js";

/** A model as OpenCode names it: provider and model id. */
export interface OpencodeModelRef {
  providerID: string;
  modelID: string;
}

/** What the OpenCode source needs from OpenCode, behind a port so the aux layer never imports the SDK. */
export interface OpencodeModels {
  /**
   * One prompt to `model` in a fresh child session of `parentID`, answered by the plug-in's
   * hidden agent with no tools; the child is deleted afterwards, whatever happens. Throws an
   * `AuxError` (`timeout` after `timeoutMs`, `http` when OpenCode or the provider fails).
   */
  ask(options: {
    parentID: string;
    model: OpencodeModelRef;
    system: string;
    text: string;
    timeoutMs: number;
  }): Promise<{ text: string; inputTokens: number; outputTokens: number }>;
  /** OpenCode's `small_model`, when configured. */
  smallModel(): Promise<string | undefined>;
  /** The model the session's latest request was made with. */
  sessionModel(sessionID: string): Promise<OpencodeModelRef | undefined>;
}

/** Parses `provider/model` (the model id may itself contain slashes). */
export function parseModelRef(text: string): OpencodeModelRef | undefined {
  const slash = text.indexOf("/");
  if (slash <= 0 || slash === text.length - 1) return undefined;
  return { providerID: text.slice(0, slash), modelID: text.slice(slash + 1) };
}

/**
 * The auxiliary model through OpenCode: the user's own providers and keys, nothing to set up.
 * The model is `model` (`provider/model`) when given, else OpenCode's `small_model`, else the
 * model of the session the call is for. Replies are plain text (no `response_format`): the
 * schema is in the system prompt and `completeJson` validates what comes back.
 */
export function createOpencodeAuxClient(options: { models: OpencodeModels; model?: string | undefined; timeoutMs: number; cooldownMs: number }): AuxClient {
  const { models, timeoutMs } = options;
  const configured = options.model === undefined ? undefined : parseModelRef(options.model);
  let smallModel: Promise<string | undefined> | undefined;
  const resolveModel = async (sessionID: string): Promise<OpencodeModelRef> => {
    if (configured) return configured;
    smallModel ??= models.smallModel().catch(() => undefined);
    const small = await smallModel;
    const fromConfig = small === undefined ? undefined : parseModelRef(small);
    if (fromConfig) return fromConfig;
    const ofSession = await models.sessionModel(sessionID);
    if (ofSession) return ofSession;
    throw new AuxError({ code: "http", message: `no model to ask: set aux.model ("provider/model") or OpenCode's small_model` });
  };
  return {
    label: `OpenCode ${options.model ?? "small_model (else the session's model)"}`,
    timeoutMs,
    format: "text",
    rememberFormat() {
      // OpenCode's prompt takes no response_format: always plain text.
    },
    health: createAuxHealth({ cooldownMs: options.cooldownMs }),
    async send(request) {
      const { sessionID } = request;
      if (sessionID === undefined) throw new AuxError({ code: "http", message: "the OpenCode source needs the session a call is made for" });
      const model = await resolveModel(sessionID);
      const system = request.messages
        .filter((message) => message.role === "system")
        .map((message) => message.content)
        .join("\n\n");
      const reply = await models.ask({ parentID: sessionID, model, system, text: conversationText(request.messages), timeoutMs });
      return { content: reply.text, inputTokens: reply.inputTokens, outputTokens: reply.outputTokens };
    },
  };
}

/** The user side of the conversation as one prompt; a retry carries the earlier reply and the correction. */
function conversationText(messages: readonly { role: string; content: string }[]): string {
  const turns = messages.filter((message) => message.role !== "system");
  if (turns.length === 1) return turns[0]?.content ?? "";
  return turns.map((message) => (message.role === "assistant" ? `Your earlier reply:\n${message.content}` : message.content)).join("\n\n");
}
