export type PytestStatus = "PASSED" | "FAILED" | "ERROR" | "SKIPPED" | "XFAIL" | "XPASS";

const STATUS_LINE = /^(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.+)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what an ANSI colour code starts with
const ANSI_ESCAPE = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * Test statuses from pytest's `-rA` short summary (`PASSED tests/test_a.py::test_x`,
 * `FAILED tests/test_a.py::test_y[a b] - AssertionError`), keyed by node id. Colours are
 * ignored. When a test appears twice (a pass, then an error in its teardown) a failure or
 * error wins. `SKIPPED [1] file:line: reason` lines name no test and are left out.
 */
export function parsePytestSummary(output: string): Map<string, PytestStatus> {
  const statuses = new Map<string, PytestStatus>();
  for (const rawLine of output.replace(ANSI_ESCAPE, "").split(/\r?\n/)) {
    const match = STATUS_LINE.exec(rawLine.trimEnd());
    if (!match) continue;
    const status = match[1] as PytestStatus;
    const rest = (match[2] ?? "").trim();
    if (/^\[\d+\] /.test(rest)) continue;
    const nodeId = status === "PASSED" ? rest : nodeIdBeforeReason(rest);
    if (nodeId === "") continue;
    const previous = statuses.get(nodeId);
    if (previous === "FAILED" || previous === "ERROR") continue;
    statuses.set(nodeId, status);
  }
  return statuses;
}

// The node id of `nodeid - reason` (pytest >= 8) or `nodeid reason` (older XPASS), where a
// parametrized id's brackets may hold spaces and even " - ".
function nodeIdBeforeReason(rest: string): string {
  const firstSpace = rest.search(/\s/);
  const firstToken = firstSpace === -1 ? rest : rest.slice(0, firstSpace);
  const bracket = rest.indexOf("[");
  if (bracket === -1 || bracket >= firstToken.length) return firstToken;
  const closeBeforeReason = /\](?= - |$)/g;
  closeBeforeReason.lastIndex = bracket;
  const beforeReason = closeBeforeReason.exec(rest);
  if (beforeReason) return rest.slice(0, beforeReason.index + 1);
  const closeBeforeSpace = rest.indexOf("] ", bracket);
  return closeBeforeSpace === -1 ? firstToken : rest.slice(0, closeBeforeSpace + 1);
}
