import { accessSync, constants, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { RcmError } from "../../kit/errors/rcm-error.js";
import { packageRoot } from "../../kit/package-root.js";

/**
 * The `opencode` binary the harness runs: `OPENCODE_BIN` (the CLI's `--opencode-bin` sets it)
 * when given; else the one of the `opencode-ai` package this package resolves (its pinned dev
 * dependency here, or the user's install next to it); else `opencode` on PATH.
 */
export function opencodeBinary(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const explicit = env.OPENCODE_BIN;
  if (explicit) {
    if (!isExecutable(explicit)) throw new RcmError("opencode-not-found", `OPENCODE_BIN (or --opencode-bin) is ${explicit}, which is not an executable file`);
    return explicit;
  }
  const resolved = fromPackage();
  if (resolved) return resolved;
  const onPath = (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, "opencode"))
    .find(isExecutable);
  if (onPath) return onPath;
  throw new RcmError(
    "opencode-not-found",
    "opencode not found: no opencode-ai package resolvable from opencode-rcm and no opencode on PATH; install it (npm i opencode-ai@1.18.33) or name the binary with --opencode-bin <path> or OPENCODE_BIN",
  );
}

/** The binary of the resolvable `opencode-ai` package: its `bin/opencode.exe` (the native binary its postinstall puts there). */
function fromPackage(): string | undefined {
  let manifest: string;
  try {
    manifest = createRequire(join(packageRoot(), "package.json")).resolve("opencode-ai/package.json");
  } catch {
    return undefined;
  }
  const dir = dirname(manifest);
  const candidates = [join(dir, "bin", "opencode.exe"), join(dir, "bin", "opencode")];
  const found = candidates.find(isExecutable);
  return found;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return existsSync(path);
  } catch {
    return false;
  }
}
