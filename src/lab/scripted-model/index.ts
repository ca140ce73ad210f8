// Public API of the scripted model (package export "./scripted-model").

export type { Reply, Script, Stage, ToolCall } from "./script.js";
export { parseScript, ReplySchema, ScriptSchema, StageSchema, ToolCallSchema } from "./script.js";
export type { ChatMessage, ChatRequestBody, Responder, SelectedReply } from "./select-reply.js";
export { ChatRequestBodySchema, isCompactionRequest, messageText, selectReply } from "./select-reply.js";
export type { RecordedRequest, ScriptedModel, ScriptedModelOptions } from "./server.js";
export { ScriptedModelError, startScriptedModel } from "./server.js";
