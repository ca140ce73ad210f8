import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { packageRoot } from "../../../kit/package-root.js";

/** The version of the opencode-rcm a run loads into OpenCode (this package's). */
export async function pluginVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return manifest.version;
}
