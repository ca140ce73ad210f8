import { z } from "zod";

import { FALLBACKS } from "../core/context/narrow-to-task.js";
import { ROUTERS } from "../core/routing/router.js";
import { MODES } from "./modes.js";

export { ROUTERS } from "../core/routing/router.js";
export { MODES, type Mode } from "./modes.js";

/** Where the auxiliary model is: an OpenAI-compatible endpoint, or the user's models through OpenCode. */
const AUX_SOURCES = ["endpoint", "opencode"] as const;
export type AuxSource = (typeof AUX_SOURCES)[number];
const NOTIFY = ["toast", "off"] as const;

// The one source of truth for every option and default: the plug-in, the config files, the
// published JSON schema (`rcm.schema.json`) and the README's table all derive from it. The
// code that uses an option takes it as a required parameter, and tests take the defaults from
// DEFAULT_OPTIONS, so no default is restated anywhere else. (The threshold's 0.8 is the paper's.)
const AuxOptionsSchema = z
  .object({
    source: z
      .enum(AUX_SOURCES)
      .optional()
      .describe("endpoint: an OpenAI-compatible endpoint; opencode: the user's own OpenCode models. Default: endpoint when baseURL is set, else opencode."),
    baseURL: z.url().optional().describe("The OpenAI-compatible endpoint's base URL (aux.source endpoint)."),
    model: z.string().min(1).optional().describe("Endpoint: the model name. OpenCode: provider/model (default: small_model, else the session's model)."),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .default("RCM_AUX_API_KEY")
      .describe("Name of the environment variable that holds the endpoint's API key."),
    timeoutMs: z.number().int().min(100).max(600_000).default(20_000).describe("Per aux-model call, in milliseconds."),
    cooldownMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .default(60_000)
      .describe("After a timeout or two failures in a row, the aux model is not asked for this long (0: never pause)."),
  })
  .strict();

const MemoryOptionsSchema = z
  .object({
    updater: z
      .enum(["model", "extractive"])
      .optional()
      .describe("model: the aux model writes the records; extractive: no model. Default: model when an aux endpoint is configured."),
    keepRecent: z.number().int().min(0).max(50).default(2).describe("The most recent interaction groups always kept whole."),
    replaceBatchTokens: z
      .number()
      .int()
      .min(0)
      .max(200_000)
      .default(2000)
      .describe(
        "Covered exchanges are replaced by the record in batches of at least this many (estimated) tokens, and only once a batch takes out three times what the provider must then read again; between batches the model is shown the same record text in the same place, so the prompt cache survives (0: replace at once). A record is written at its task's first finished turn; the extractive updater keeps it current at every turn, the model updater once the unrecorded exchanges reach as many tokens, and both before every compaction.",
      ),
    recordTokens: z.number().int().min(200).max(20_000).default(1500).describe("Bound of a rendered record, in (estimated) tokens."),
    batchGroups: z.number().int().min(1).max(50).default(6).describe("At most this many groups per aux-model update..."),
    batchTokens: z.number().int().min(1000).max(200_000).default(12_000).describe("...and at most this many (estimated) tokens of them."),
  })
  .strict();

// Unfinished tasks of earlier sessions: what the CLI and the panel list, and what a later session may resume.
const ResumeOptionsSchema = z
  .object({
    automatic: z
      .boolean()
      .default(true)
      .describe(
        "A request of a new session that names an earlier session's unfinished task (its file, code name, title or own words) resumes it, its record with it (false: only /rcm resume does).",
      ),
    maxAgeDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .default(14)
      .describe("Unfinished tasks of sessions active within this many days are kept (14: two weeks covers holidays, while older work has usually moved on)."),
    maxTasks: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(20)
      .describe("At most this many unfinished tasks, the most recently active first (20: a list a person reads at a glance)."),
    keepDeletedSessions: z
      .boolean()
      .default(false)
      .describe(
        "Keep the unfinished tasks of a session deleted in OpenCode (false: deleting a session is throwing its work away, so its tasks are marked deleted and listed no more; its state file stays).",
      ),
  })
  .strict();

const OptionsShape = z
  .object({
    mode: z.enum(MODES).default("full").describe("native: no change; router: task filtering; memory: task records only; full: both."),
    confidenceThreshold: z.number().min(0).max(1).default(0.8).describe("Below this routing confidence the model gets the full history."),
    fallback: z
      .enum(FALLBACKS)
      .default("full")
      .describe(
        "Below the threshold: full keeps every task's history (the paper's); candidates keeps the tasks the request could belong to, with shared and unassigned exchanges, and leaves out only tasks it surely is not.",
      ),
    router: z
      .enum(ROUTERS)
      .default("lexical")
      .describe(
        "lexical: no model, no network; model: the aux model for every request that is not unambiguous; hybrid: the aux model only when the lexical decision is unsure.",
      ),
    aux: AuxOptionsSchema.prefault({}).describe("The auxiliary model (model and hybrid routers, model memory updater)."),
    memory: MemoryOptionsSchema.prefault({}).describe("Task-state memory (modes memory and full)."),
    resume: ResumeOptionsSchema.prefault({}).describe("Unfinished tasks of the project's earlier sessions (opencode-rcm tasks --all)."),
    notify: z
      .enum(NOTIFY)
      .default("toast")
      .describe("toast: a short toast when a request opens or switches task or falls back to the full history; off: none."),
    stateDir: z.string().min(1).optional().describe("Where ledgers and records live. Default: $XDG_DATA_HOME/opencode/rcm/<project id>."),
    debug: z.boolean().default(false).describe("Annotate what the model receives and log every model call."),
  })
  .strict();

/** The options, from the config files, the `["opencode-rcm", { ... }]` tuple and `RCM_*` variables. */
export const OptionsSchema = OptionsShape.refine(
  (options) => options.router === "lexical" || auxSourceOf(options.aux) === "opencode" || auxConfigured(options.aux),
  {
    path: ["router"],
    message: "the model and hybrid routers with aux.source endpoint need aux.baseURL and aux.model (or RCM_AUX_BASE_URL and RCM_AUX_MODEL)",
  },
)
  .refine((options) => options.memory.updater !== "model" || auxSourceOf(options.aux) === "opencode" || auxConfigured(options.aux), {
    path: ["memory", "updater"],
    message: "the model memory updater with aux.source endpoint needs aux.baseURL and aux.model (or RCM_AUX_BASE_URL and RCM_AUX_MODEL)",
  })
  .refine((options) => !usesOpencodeModel(options) || options.aux.model === undefined || /^[^/\s]+\/\S+$/.test(options.aux.model), {
    path: ["aux", "model"],
    message: 'with aux.source opencode, the model is written "provider/model" (as in opencode.json)',
  });

/** The schema of each option group, by key: what a config layer's keys are checked against one by one. */
export const OPTION_GROUPS: Readonly<Record<string, z.ZodObject>> = {
  "": OptionsShape,
  aux: AuxOptionsSchema,
  memory: MemoryOptionsSchema,
  resume: ResumeOptionsSchema,
};

function auxConfigured(aux: { baseURL?: string | undefined; model?: string | undefined }): boolean {
  return aux.baseURL !== undefined && aux.model !== undefined;
}

function usesOpencodeModel(options: {
  router: string;
  memory: { updater?: string | undefined };
  aux: { source?: AuxSource | undefined; baseURL?: string | undefined };
}): boolean {
  return auxSourceOf(options.aux) === "opencode" && (options.router !== "lexical" || options.memory.updater === "model");
}

/** The aux source in effect: as configured, else the endpoint when one is given, else OpenCode. */
export function auxSourceOf(aux: { source?: AuxSource | undefined; baseURL?: string | undefined }): AuxSource {
  return aux.source ?? (aux.baseURL !== undefined ? "endpoint" : "opencode");
}

/** The memory updater in effect: as configured, else model when an aux model is configured. */
export function memoryUpdaterOf(options: Options): "model" | "extractive" {
  return options.memory.updater ?? (auxConfigured(options.aux) ? "model" : "extractive");
}

export type Options = z.infer<typeof OptionsSchema>;

/** Every default, as the plug-in uses it when nothing is configured. */
export const DEFAULT_OPTIONS: Options = OptionsSchema.parse({});
