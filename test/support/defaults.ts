import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { createLexicalRouter } from "../../src/plugin/core/routing/router.js";

// The plug-in's defaults, taken from the options schema: tests never restate them.

export const THRESHOLD = DEFAULT_OPTIONS.confidenceThreshold;
export const RECORD_TOKENS = DEFAULT_OPTIONS.memory.recordTokens;
export const KEEP_RECENT = DEFAULT_OPTIONS.memory.keepRecent;
export const COOLDOWN_MS = DEFAULT_OPTIONS.aux.cooldownMs;
export const TIMEOUT_MS = DEFAULT_OPTIONS.aux.timeoutMs;
export const MODEL_BATCH_LIMITS = { maxGroups: DEFAULT_OPTIONS.memory.batchGroups, maxTokens: DEFAULT_OPTIONS.memory.batchTokens };

/** The lexical router with the committed parameters and the default threshold. */
export const lexicalRouter = createLexicalRouter({ threshold: THRESHOLD });
