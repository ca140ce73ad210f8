// Every file under a folder, for building and checking committed fixtures.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** path -> content (UTF-8) of every file under `root`, paths relative to it, in sorted order. */
export function readTree(root) {
  const files = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(root, path)] = readFileSync(path, "utf8");
    }
  };
  walk(root);
  return files;
}
