export type { AuxChatReply, AuxChatRequest, AuxClient, AuxFormat } from "./aux-client.js";
export { AuxError, type AuxErrorCode } from "./aux-error.js";
export { type AuxUsage, type CompleteJsonOptions, completeJson, type JsonResult } from "./complete-json.js";
export { createAuxClient, type EndpointClientOptions } from "./endpoint-client.js";
export { loadPrompt, renderPrompt } from "./prompts.js";
