// Public API of the scripted model (package export "./scripted-model").
export { parseScript, ScriptSchema, ReplySchema, StageSchema, ToolCallSchema } from "./script.js";
export type { Reply, Script, Stage, ToolCall } from "./script.js";
export { selectReply, messageText, isCompactionRequest, ChatRequestBodySchema } from "./select-reply.js";
export type { ChatMessage, ChatRequestBody, Responder, SelectedReply } from "./select-reply.js";
export { ScriptedModelError, startScriptedModel } from "./server.js";
export type { RecordedRequest, ScriptedModel, ScriptedModelOptions } from "./server.js";
