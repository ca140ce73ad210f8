import { isAbsolute } from "node:path";
import { runCommand } from "./run-command.js";
import { ScoreHarnessError } from "./score-harness-error.js";

const FALLBACK_CANDIDATES = ["python3", "/usr/bin/python3", "python"];
const CHECK_TIMEOUT_MS = 10_000;
// Prints the interpreter's own path, so that callers get an absolute path even for `python3`
// (a PATH lookup, possibly a pyenv shim) and a venv's interpreter stays the venv's.
const CHECK_SCRIPT = "import sys, pytest; sys.stdout.write(sys.executable)";

const cache = new Map<string, Promise<string>>();

/**
 * An absolute path to a Python interpreter that can `import pytest`: `RCM_PYTHON` when set
 * and usable, else the first of `python3`, `/usr/bin/python3`, `python` that is. The answer is
 * cached per `RCM_PYTHON` and `PATH`.
 */
export function findPython(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const key = JSON.stringify([env.RCM_PYTHON ?? null, env.PATH ?? null]);
  let found = cache.get(key);
  if (found === undefined) {
    found = search(env);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

async function search(env: NodeJS.ProcessEnv): Promise<string> {
  const candidates = [...(env.RCM_PYTHON ? [env.RCM_PYTHON] : []), ...FALLBACK_CANDIDATES];
  const failures: string[] = [];
  for (const candidate of candidates) {
    const result = await runCommand({ command: candidate, args: ["-c", CHECK_SCRIPT], cwd: process.cwd(), env, timeoutMs: CHECK_TIMEOUT_MS });
    const executable = result.stdout.trim();
    if (result.code === 0 && isAbsolute(executable)) return executable;
    if (result.code === 0 && isAbsolute(candidate)) return candidate;
    failures.push(`${candidate}: ${describeFailure(result)}`);
  }
  throw new ScoreHarnessError({
    reason: "python-not-found",
    message:
      `No Python interpreter that can import pytest was found (tried ${candidates.join(", ")}). ` +
      "Install python3-pytest (Debian) or set RCM_PYTHON to an interpreter that has pytest.\n" +
      failures.join("\n"),
    detail: failures.join("\n"),
  });
}

function describeFailure(result: { code: number | null; stderr: string; timedOut: boolean }): string {
  if (result.timedOut) return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
  const lastLine = result.stderr.trim().split("\n").at(-1) ?? "";
  return lastLine || (result.code === 0 ? "did not report its own path" : `exit ${result.code ?? "none"}`);
}
