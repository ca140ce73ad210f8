import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The options of our entry in OpenCode's `plugin` list (`["opencode-rcm", { ... }]`, or a
 * path to this package), as the TUI sees the server's config: the TUI part reads the same
 * options as the server part, from the same sources. `packageDir` is where this package is.
 */
export function pluginTupleOptions(plugins: unknown, packageDir: string): unknown {
  if (!Array.isArray(plugins)) return undefined;
  for (const entry of plugins) {
    if (!Array.isArray(entry) || entry.length < 2) continue;
    const [spec, options] = entry as [unknown, unknown];
    if (typeof spec === "string" && namesThisPackage(spec, packageDir)) return options;
  }
  return undefined;
}

/** A spec naming this package: its npm name (with a version or not), or a path to it or into it. */
export function namesThisPackage(spec: string, packageDir: string): boolean {
  if (/^opencode-rcm(@[^/]*)?$/.test(spec)) return true;
  let path: string;
  try {
    path = spec.startsWith("file:") ? fileURLToPath(spec) : spec;
  } catch {
    return false;
  }
  if (!path.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(path)) return false;
  const root = resolve(packageDir);
  const target = resolve(path);
  return target === root || target.startsWith(`${root}/`) || target.startsWith(`${root}\\`);
}
