export { AuxError, type AuxErrorCode } from "./aux-error.js";
export { type AuxClient, type AuxFormat, type AuxChatRequest, type AuxChatReply } from "./aux-client.js";
export { createAuxClient, type EndpointClientOptions } from "./endpoint-client.js";
export { completeJson, type AuxUsage, type CompleteJsonOptions, type JsonResult } from "./complete-json.js";
export { loadPrompt, renderPrompt } from "./prompts.js";
