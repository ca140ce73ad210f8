import type { ToolCallDigest } from "./group-digest.js";

/** Tools whose completed call changes files: their call ids are evidence of progress. */
const EDITING_TOOLS = new Set(["edit", "write", "patch", "apply_patch", "multiedit"]);

// First words of shell commands that only look; a bash call made only of these proves no progress.
const READ_ONLY_COMMANDS = new Set([
  "cat",
  "ls",
  "head",
  "tail",
  "less",
  "more",
  "grep",
  "rg",
  "find",
  "wc",
  "pwd",
  "echo",
  "tree",
  "file",
  "stat",
  "which",
  "diff",
  "nl",
  "sort",
  "uniq",
  "du",
  "df",
]);
const READ_ONLY_GIT = new Set(["status", "diff", "log", "show", "blame", "branch", "ls-files", "rev-parse"]);

// A test runner in command position: at the start of a pipeline segment, after env assignments or npx.
const TEST_RUNNER =
  /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:npx\s+|uv run\s+|poetry run\s+)?(?:pytest|py\.test|tox|nox|jest|vitest|mocha|go test|cargo test|npm (?:run )?test|pnpm (?:run )?test|yarn test|bun test|node --test|deno test|dotnet test|swift test|make (?:check|test)|python[\d.]* -m (?:pytest|unittest)|ctest|mvn test|(?:\.\/)?gradlew? test|rspec|phpunit)\b/;

/** A completed call that changed the repository or ran a command that did more than look. */
export function isProgressEvidence(call: ToolCallDigest): boolean {
  if (call.status !== "completed") return false;
  if (EDITING_TOOLS.has(call.tool)) return true;
  if (call.tool !== "bash") return false;
  const command = typeof call.input.command === "string" ? call.input.command : "";
  return command.trim() !== "" && !isReadOnlyCommand(command);
}

/**
 * A call that tried to change the repository and failed: a dead end, shown by the tool's
 * own error, so it is evidence of what was tried (not of progress).
 */
export function isDeadEnd(call: ToolCallDigest): boolean {
  if (call.status !== "error") return false;
  if (EDITING_TOOLS.has(call.tool)) return true;
  const command = typeof call.input.command === "string" ? call.input.command : "";
  return call.tool === "bash" && isTestCommand(command);
}

/** A call whose tool edits files (whatever its status). */
export function isEditingCall(call: ToolCallDigest): boolean {
  return EDITING_TOOLS.has(call.tool);
}

/** True if every part of a shell pipeline only reads (no redirection into a file). */
function isReadOnlyCommand(command: string): boolean {
  if (/>|\btee\b/.test(command.replace(/\d?>&\d|\d?>\s*\/dev\/null/g, ""))) return false;
  return segments(command)
    .map((segment) => segment.split(/\s+/))
    .filter((words) => words[0] !== undefined && words[0] !== "")
    .every((words) => {
      const [first, second] = words;
      if (first === "cd") return true;
      if (first === "git") return second !== undefined && READ_ONLY_GIT.has(second) && !(second === "branch" && words.length > 2);
      if (first === "find") return !words.some((word) => word === "-delete" || word.startsWith("-exec") || word.startsWith("-ok"));
      if (first === "sed") return words.includes("-n") && !words.some((word) => word.startsWith("-i"));
      return READ_ONLY_COMMANDS.has(first ?? "");
    });
}

/** True if the bash command runs a test suite. */
export function isTestCommand(command: string): boolean {
  return segments(command).some((segment) => TEST_RUNNER.test(segment));
}

function segments(command: string): string[] {
  return command.split(/&&|\|\||;|\|/).map((segment) => segment.trim());
}

/** passed, failed, or unknown (the run was cut off, or printed nothing we can read). */
export function testOutcome(call: ToolCallDigest): "passed" | "failed" | "unknown" {
  if (call.status === "error") return "failed";
  if (call.status !== "completed") return "unknown";
  // The exit code decides when OpenCode recorded one; the summary lines only without it.
  if (typeof call.exit === "number") return call.exit === 0 ? "passed" : "failed";
  const output = call.output ?? "";
  if (/\b[1-9]\d* (failed|errors?)\b|^(FAILED|ERROR)\b|\bFAILED\b \(|Traceback \(most recent call last\)|\b[1-9]\d* failing\b|^FAIL\b/m.test(output))
    return "failed";
  if (/\b\d+ passed\b|^OK\b|\b\d+ passing\b|^PASS\b/m.test(output)) return "passed";
  return "unknown";
}
