import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The directory holding this package's package.json (works from src/ and from dist/). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("opencode-rcm: cannot find the package root");
    dir = parent;
  }
  return dir;
}

/**
 * The built file that one of the package's entry points ("./server": the plug-in's server
 * part, "./tui": its TUI part) loads, as package.json's `exports` name it: the one place
 * that says where they are, for the bench, the demo, the scripts and the tests.
 */
export function builtEntry(entry: "./server" | "./tui", root: string = packageRoot()): string {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports?: Record<string, { import?: string }> };
  const file = manifest.exports?.[entry]?.import;
  if (file === undefined) throw new Error(`opencode-rcm: ${join(root, "package.json")} has no exports["${entry}"].import`);
  return join(root, file);
}
