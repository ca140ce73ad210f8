import type { z } from "zod";
import { closestKey } from "./closest-key.js";
import type { OptionProblem } from "./option-problem.js";
import { DEFAULT_OPTIONS, OPTION_GROUPS, type Options, OptionsSchema } from "./options-schema.js";

/** One source of option values, in precedence order (a later layer wins, key by key). */
export interface ConfigLayer {
  /** Where a key's value is written, as the user would look for it (`file:line`, `RCM_MODE`...). */
  where(path: readonly string[]): string;
  values: unknown;
  /** Keys the layer may carry that are not options (a file's `$schema`). */
  ignoredKeys?: readonly string[];
}

export interface ResolvedOptions {
  options: Options;
  problems: OptionProblem[];
}

type Values = Record<string, unknown>;

/**
 * Merges the layers and validates them key by key: a bad value drops only that key (the
 * earlier layer's value, else the default, is used), an unknown key is reported with the
 * closest known one and ignored. Never throws.
 */
export function resolveOptions(layers: readonly ConfigLayer[]): ResolvedOptions {
  const problems: OptionProblem[] = [];
  const merged: Values = {};
  // The layer that set each dotted key, to name it when a rule across keys rejects it.
  const setBy = new Map<string, ConfigLayer>();
  for (const layer of layers) {
    if (layer.values === undefined) continue;
    if (!isPlainObject(layer.values)) {
      problems.push({
        kind: "invalid",
        where: layer.where([]),
        key: "(options)",
        value: layer.values,
        message: "must be an object",
        instead: "none of its values",
      });
      continue;
    }
    acceptValid({ layer, values: layer.values, path: [], target: merged, setBy, problems });
  }
  // Rules across keys (a model router needs an aux model): drop the key they name and retry.
  for (;;) {
    const parsed = OptionsSchema.safeParse(merged);
    if (parsed.success) return { options: parsed.data, problems };
    const issue = parsed.error.issues[0];
    const path = issue?.path.map(String) ?? [];
    const dotted = path.join(".");
    if (path.length === 0 || getPath(merged, path) === undefined) return { options: DEFAULT_OPTIONS, problems };
    problems.push({
      kind: "invalid",
      where: setBy.get(dotted)?.where(path) ?? "options",
      key: dotted,
      value: getPath(merged, path),
      message: issue?.message ?? "invalid",
      instead: defaultOf(path),
    });
    deletePath(merged, path);
  }
}

function acceptValid(options: {
  layer: ConfigLayer;
  values: Values;
  path: readonly string[];
  target: Values;
  setBy: Map<string, ConfigLayer>;
  problems: OptionProblem[];
}): void {
  const { layer, values, path, target, setBy, problems } = options;
  const group = OPTION_GROUPS[path.join(".")] as z.ZodObject;
  const known = Object.keys(group.shape);
  for (const [key, value] of Object.entries(values)) {
    const keyPath = [...path, key];
    const dotted = keyPath.join(".");
    if (path.length === 0 && layer.ignoredKeys?.includes(key)) continue;
    if (!known.includes(key)) {
      const suggestion = suggest(key, path);
      problems.push({
        kind: "unknown",
        where: layer.where(keyPath),
        key: dotted,
        value,
        message: "unknown option",
        ...(suggestion ? { suggestion } : {}),
        instead: "nothing",
      });
      continue;
    }
    if (OPTION_GROUPS[dotted] !== undefined && isPlainObject(value)) {
      const nested = isPlainObject(target[key]) ? (target[key] as Values) : {};
      target[key] = nested;
      acceptValid({ layer, values: value, path: keyPath, target: nested, setBy, problems });
      continue;
    }
    const checked = (group.shape[key] as z.ZodType).safeParse(value);
    if (!checked.success || value === undefined) {
      const earlier = setBy.get(dotted);
      problems.push({
        kind: "invalid",
        where: layer.where(keyPath),
        key: dotted,
        value,
        message: checked.success ? "has no value" : (checked.error.issues[0]?.message ?? "invalid"),
        instead: earlier ? `the value from ${earlier.where(keyPath)}` : defaultOf(keyPath),
      });
      continue;
    }
    target[key] = value;
    setBy.set(dotted, layer);
  }
}

/** The nearest key in the same group, else the same key in another group (`timeoutMs` → `aux.timeoutMs`). */
function suggest(key: string, path: readonly string[]): string | undefined {
  const prefix = path.length > 0 ? `${path.join(".")}.` : "";
  const own = closestKey(key, Object.keys((OPTION_GROUPS[path.join(".")] as z.ZodObject).shape));
  if (own !== undefined) return prefix + own;
  const everywhere = Object.entries(OPTION_GROUPS).flatMap(([group, schema]) =>
    Object.keys(schema.shape).map((name) => (group === "" ? name : `${group}.${name}`)),
  );
  const leaf = closestKey(
    key,
    everywhere.map((dotted) => dotted.split(".").pop() as string),
  );
  return leaf === undefined ? undefined : everywhere.find((dotted) => dotted.split(".").pop() === leaf);
}

function defaultOf(path: readonly string[]): string {
  const value = getPath(DEFAULT_OPTIONS, path);
  return value === undefined ? "no value (unset)" : `the default ${JSON.stringify(value)}`;
}

function isPlainObject(value: unknown): value is Values {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function getPath(target: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), target);
}

function deletePath(target: Values, path: readonly string[]): void {
  const parent = getPath(target, path.slice(0, -1));
  if (isPlainObject(parent)) delete parent[path[path.length - 1] as string];
}
