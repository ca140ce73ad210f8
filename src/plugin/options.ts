import { z } from "zod";
import { DEFAULT_COOLDOWN_MS } from "../aux/aux-health.js";
import { DEFAULT_CONFIDENCE_THRESHOLD } from "../core/routing/decision.js";

export const MODES = ["native", "router", "memory", "full"] as const;
export type Mode = (typeof MODES)[number];

export const ROUTERS = ["lexical", "model", "hybrid"] as const;
/** Where the auxiliary model is: an OpenAI-compatible endpoint, or the user's models through OpenCode. */
export const AUX_SOURCES = ["endpoint", "opencode"] as const;
export type AuxSource = (typeof AUX_SOURCES)[number];

/** The options tuple of `["opencode-rcm", { ... }]` in opencode.json. */
export const OptionsSchema = z
  .object({
    /** native: no change; router: task filtering; memory: records only; full: both. */
    mode: z.enum(MODES).default("full"),
    /** Below this routing confidence the full history is kept. */
    confidenceThreshold: z.number().min(0).max(1).default(DEFAULT_CONFIDENCE_THRESHOLD),
    /**
     * lexical: no model, no network; model: the aux model for every request that is not
     * unambiguous; hybrid: the aux model only when the lexical decision is unsure. Both fall
     * back to lexical on any failure.
     */
    router: z.enum(ROUTERS).default("lexical"),
    aux: z
      .object({
        /** Default: `endpoint` when baseURL is set, else `opencode` (the user's own models, no set-up). */
        source: z.enum(AUX_SOURCES).optional(),
        baseURL: z.url().optional(),
        /** Endpoint: the model name. OpenCode: `provider/model` (default: small_model, else the session's model). */
        model: z.string().min(1).optional(),
        /** Name of the environment variable that holds the aux model's API key. */
        apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default("RCM_AUX_API_KEY"),
        /** Per aux-model call, in milliseconds. */
        timeoutMs: z.number().int().min(100).max(600_000).default(20_000),
        /** After a timeout or two failures in a row, the aux model is not asked for this long (0: never pause). */
        cooldownMs: z.number().int().min(0).max(3_600_000).default(DEFAULT_COOLDOWN_MS),
      })
      .strict()
      .default({ apiKeyEnv: "RCM_AUX_API_KEY", timeoutMs: 20_000, cooldownMs: DEFAULT_COOLDOWN_MS }),
    /** Task-state memory (modes memory and full). */
    memory: z
      .object({
        /** model: the aux model; extractive: no model. Default: model when aux is configured. */
        updater: z.enum(["model", "extractive"]).optional(),
        /** The most recent interaction groups always kept whole. */
        keepRecent: z.number().int().min(0).max(50).default(2),
        /** Bound of the rendered record, in (estimated) tokens. */
        recordTokens: z.number().int().min(200).max(20_000).default(1500),
        /** At most this many groups per aux-model update... */
        batchGroups: z.number().int().min(1).max(50).default(6),
        /** ...and at most this many (estimated) tokens of them. */
        batchTokens: z.number().int().min(1000).max(200_000).default(12_000),
      })
      .strict()
      .default({ keepRecent: 2, recordTokens: 1500, batchGroups: 6, batchTokens: 12_000 }),
    /** Where ledgers and records live; default: $XDG_DATA_HOME/opencode/rcm/<project id>. */
    stateDir: z.string().min(1).optional(),
    /** Annotate what the model receives and log every transform. */
    debug: z.boolean().default(false),
    /** Testing only: make the named hooks throw, to exercise the fail-open guard. */
    simulateFailure: z.array(z.enum(["chat.message", "transform", "event"])).default([]),
  })
  .strict()
  .refine((options) => options.router === "lexical" || auxSourceOf(options.aux) === "opencode" || auxConfigured(options.aux), {
    path: ["router"],
    message: "the model and hybrid routers with aux.source endpoint need aux.baseURL and aux.model (or RCM_AUX_BASE_URL and RCM_AUX_MODEL)",
  })
  .refine((options) => options.memory.updater !== "model" || auxSourceOf(options.aux) === "opencode" || auxConfigured(options.aux), {
    path: ["memory", "updater"],
    message: "the model memory updater with aux.source endpoint needs aux.baseURL and aux.model (or RCM_AUX_BASE_URL and RCM_AUX_MODEL)",
  })
  .refine((options) => !usesOpencodeModel(options) || options.aux.model === undefined || /^[^/\s]+\/\S+$/.test(options.aux.model), {
    path: ["aux", "model"],
    message: 'with aux.source opencode, the model is written "provider/model" (as in opencode.json)',
  });

function auxConfigured(aux: { baseURL?: string | undefined; model?: string | undefined }): boolean {
  return aux.baseURL !== undefined && aux.model !== undefined;
}

function usesOpencodeModel(options: { router: string; memory: { updater?: string | undefined }; aux: { source?: AuxSource | undefined; baseURL?: string | undefined } }): boolean {
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

export interface OptionProblem {
  /** Dotted option key, or the environment variable's name. */
  key: string;
  value: unknown;
  message: string;
}

export interface ResolvedOptions {
  options: Options;
  problems: OptionProblem[];
}

// Environment variables override the tuple, so a run can switch mode without editing config.
const ENV_KEYS = {
  RCM_MODE: ["mode"],
  RCM_CONFIDENCE_THRESHOLD: ["confidenceThreshold"],
  RCM_ROUTER: ["router"],
  RCM_AUX_SOURCE: ["aux", "source"],
  RCM_AUX_BASE_URL: ["aux", "baseURL"],
  RCM_AUX_MODEL: ["aux", "model"],
  RCM_AUX_API_KEY_ENV: ["aux", "apiKeyEnv"],
  RCM_AUX_TIMEOUT_MS: ["aux", "timeoutMs"],
  RCM_AUX_COOLDOWN_MS: ["aux", "cooldownMs"],
  RCM_MEMORY_UPDATER: ["memory", "updater"],
  RCM_STATE_DIR: ["stateDir"],
  RCM_DEBUG: ["debug"],
} as const satisfies Record<string, readonly string[]>;

const NATIVE: Options = OptionsSchema.parse({ mode: "native" });

/**
 * Merges the tuple options with `RCM_*` variables and validates them. Invalid input never
 * throws: it yields the problems (key and value named) and native options.
 */
export function resolveOptions(
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedOptions {
  const problems: OptionProblem[] = [];
  if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
    return { options: NATIVE, problems: [{ key: "(options)", value: raw, message: "must be an object" }] };
  }
  const merged: Record<string, unknown> = structuredClone((raw ?? {}) as Record<string, unknown>);
  const envSource = new Map<string, string>();
  for (const [name, path] of Object.entries(ENV_KEYS)) {
    const text = env[name];
    if (text === undefined || text === "") continue;
    setPath(merged, path, fromEnvText(path, text));
    envSource.set(path.join("."), name);
  }
  const parsed = OptionsSchema.safeParse(merged);
  if (parsed.success) return { options: parsed.data, problems };
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join(".") || "(options)";
    const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : [];
    if (unknownKeys.length > 0) {
      for (const unknownKey of unknownKeys) {
        const full = key === "(options)" ? unknownKey : `${key}.${unknownKey}`;
        problems.push({ key: full, value: getPath(merged, full.split(".")), message: "unknown option" });
      }
      continue;
    }
    const source = envSource.get(key);
    problems.push({
      key: source ? `${source} (${key})` : key,
      value: getPath(merged, issue.path.map(String)),
      message: issue.message,
    });
  }
  return { options: NATIVE, problems };
}

export function describeProblem(problem: OptionProblem): string {
  return `invalid option ${problem.key} = ${JSON.stringify(problem.value) ?? "undefined"}: ${problem.message}`;
}

function fromEnvText(path: readonly string[], text: string): unknown {
  const key = path[path.length - 1];
  if (key === "debug") return text === "1" || text === "true" ? true : text === "0" || text === "false" ? false : text;
  if (key === "confidenceThreshold" || key === "timeoutMs" || key === "cooldownMs") {
    const value = Number(text);
    return Number.isFinite(value) ? value : text;
  }
  return text;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  path.slice(0, -1).forEach((key) => {
    const next = node[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  });
  node[path[path.length - 1] as string] = value;
}

function getPath(target: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    target,
  );
}
