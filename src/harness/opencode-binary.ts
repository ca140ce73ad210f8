import { existsSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

/** The pinned `opencode` binary that `npm ci` put in node_modules (never one from PATH). */
export function opencodeBinary(): string {
  const path = join(packageRoot(), "node_modules", ".bin", "opencode");
  if (!existsSync(path)) {
    throw new Error(`opencode binary not found at ${path}: run \`npm ci\` (it installs opencode-ai, pinned)`);
  }
  return path;
}
