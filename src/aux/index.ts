export { AuxError, type AuxErrorCode } from "./aux-error.js";
export { createAuxClient, type AuxClient, type AuxClientOptions, type AuxFormat } from "./aux-client.js";
export { completeJson, type AuxUsage, type CompleteJsonOptions, type JsonResult } from "./complete-json.js";
export { loadPrompt, renderPrompt } from "./prompts.js";
