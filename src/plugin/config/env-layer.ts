import type { ConfigLayer } from "./resolve-options.js";

/** `RCM_*` variables and the option each sets; they override every file, for one run. */
const ENV_KEYS = {
  RCM_MODE: ["mode"],
  RCM_CONFIDENCE_THRESHOLD: ["confidenceThreshold"],
  RCM_FALLBACK: ["fallback"],
  RCM_ROUTER: ["router"],
  RCM_NOTIFY: ["notify"],
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

const NUMERIC = new Set(["confidenceThreshold", "timeoutMs", "cooldownMs"]);

/** The layer of the `RCM_*` variables that are set (an empty one counts as unset). */
export function envLayer(env: Readonly<Record<string, string | undefined>>): ConfigLayer {
  const values: Record<string, unknown> = {};
  const names = new Map<string, string>();
  for (const [name, path] of Object.entries(ENV_KEYS)) {
    const text = env[name];
    if (text === undefined || text === "") continue;
    const [group, key] = path.length === 2 ? path : [undefined, path[0]];
    if (group !== undefined) values[group] ??= {};
    const target = (group === undefined ? values : values[group]) as Record<string, unknown>;
    target[key] = fromText(key, text);
    names.set(path.join("."), name);
  }
  return { values, where: (path) => names.get(path.join(".")) ?? "RCM_* environment" };
}

function fromText(key: string, text: string): unknown {
  if (key === "debug") return text === "1" || text === "true" ? true : text === "0" || text === "false" ? false : text;
  if (NUMERIC.has(key)) {
    const value = Number(text);
    return Number.isFinite(value) ? value : text;
  }
  return text;
}
