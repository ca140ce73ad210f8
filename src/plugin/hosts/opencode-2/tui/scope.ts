import { homedir } from "node:os";
import { dirname, resolve } from "node:path";
import { packageRoot } from "../../../../kit/package-root.js";
import { namesThisPackage } from "../../../config/plugin-tuple.js";
import { locateState, type TuiScope } from "../../../store/locate-state.js";
import type { ConfigLayer, TuiApi, TuiLocation } from "./api.js";

/**
 * The options and state folder the server part uses, for the folder the TUI works in. A TUI
 * part loaded because the server lists the plug-in gets no options of its own, so our entry's
 * options are read from the config layers the server resolved (`plugins`, each entry `"pkg"` or
 * `{ package, options }`). Located once per folder: the TUI may open another project.
 */
export function scopeOf(api: TuiApi): () => Promise<TuiScope | undefined> {
  let located: { directory: string; scope: Promise<TuiScope> } | undefined;
  return async () => {
    const location = api.location;
    if (!location) return undefined;
    if (located?.directory !== location.directory) located = { directory: location.directory, scope: locate(api, location) };
    return located.scope;
  };
}

async function locate(api: TuiApi, location: TuiLocation): Promise<TuiScope> {
  const answer = await api.client.config.get({ location: { directory: location.directory } });
  const layers = Array.isArray(answer) ? answer : answer.data;
  return locateState({
    directory: location.directory,
    worktree: location.project.directory,
    plugins: rcmEntries(layers, packageRoot()),
    packageDir: packageRoot(),
    env: process.env,
    home: homedir(),
    projectID: async () => location.project.id,
  });
}

/**
 * The entries naming this package (installed at `packageDir`) in every layer's `plugins`, as
 * `[spec, options]` (the shape the options' reader takes), a later layer's first: it wins.
 */
export function rcmEntries(layers: readonly ConfigLayer[], packageDir: string): Array<[string, unknown]> {
  const entries: Array<[string, unknown]> = [];
  for (const layer of layers) {
    const plugins = layer.info?.plugins;
    if (!Array.isArray(plugins)) continue;
    for (const entry of plugins as unknown[]) {
      const spec = typeof entry === "string" ? entry : (entry as { package?: unknown } | null)?.package;
      if (typeof spec !== "string") continue;
      // A relative path is the config file's: `{ "package": "./plugins/opencode-rcm" }`.
      const path = spec.startsWith(".") && layer.path ? resolve(dirname(layer.path), spec) : spec;
      if (!namesThisPackage(path, packageDir)) continue;
      entries.unshift([path, typeof entry === "string" ? undefined : (entry as { options?: unknown }).options]);
    }
  }
  return entries;
}
