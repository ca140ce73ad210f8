import { type CommandResult, runCommand } from "./run-command.js";
import { ScoreHarnessError } from "./score-harness-error.js";

// Inherited variables that would point git at another repository or index (e.g. inside a git hook).
const INHERITED_GIT_VARIABLES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_PREFIX",
  "GIT_NAMESPACE",
];

/**
 * Runs git in `cwd` with the caller's environment minus repository-selecting variables, plus
 * `env`. With `check` (the default) a non-zero exit throws a `ScoreHarnessError`.
 */
export async function runGit(options: { cwd: string; args: readonly string[]; env?: Record<string, string>; check?: boolean }): Promise<CommandResult> {
  const { cwd, args, env = {}, check = true } = options;
  const fullEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_GIT_VARIABLES) delete fullEnv[name];
  Object.assign(fullEnv, { GIT_TERMINAL_PROMPT: "0" }, env);
  const result = await runCommand({ command: "git", args, cwd, env: fullEnv });
  if (check && result.code !== 0) {
    throw new ScoreHarnessError({
      reason: "git-failed",
      message: `git ${args.join(" ")} failed in ${cwd} (exit ${result.code ?? "none"}): ${result.stderr.trim()}`,
      detail: result.stderr,
    });
  }
  return result;
}
