import { configFilePaths, readConfigFile } from "./config-files.js";
import { envLayer } from "./env-layer.js";
import type { OptionProblem } from "./option-problem.js";
import { type ConfigLayer, type ResolvedOptions, resolveOptions } from "./resolve-options.js";

/** What the opencode.json tuple's options are called in messages. */
const TUPLE_SOURCE = "opencode.json plug-in options";

/** The tuple's options as a layer. */
export function tupleLayer(values: unknown): ConfigLayer {
  return { values, where: (path) => (path.length > 0 ? `${TUPLE_SOURCE} (${path.join(".")})` : TUPLE_SOURCE) };
}

/**
 * The plug-in's options from the whole chain, lowest precedence first: the user's
 * rcm.jsonc, `$OPENCODE_CONFIG_DIR`'s, the project's nearest `.opencode/rcm.jsonc`, the
 * opencode.json tuple, then `RCM_*` variables. Never throws; `files` are those that were read.
 */
export async function loadOptions(options: {
  tuple: unknown;
  directory: string;
  worktree: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}): Promise<ResolvedOptions & { files: string[] }> {
  const layers: ConfigLayer[] = [];
  const fileProblems: OptionProblem[] = [];
  const files: string[] = [];
  for (const path of await configFilePaths(options)) {
    const { layer, problem } = await readConfigFile(path);
    if (problem) fileProblems.push(problem);
    if (layer) {
      layers.push(layer);
      files.push(path);
    }
  }
  layers.push(tupleLayer(options.tuple), envLayer(options.env));
  const resolved = resolveOptions(layers);
  return { ...resolved, problems: [...fileProblems, ...resolved.problems], files };
}
