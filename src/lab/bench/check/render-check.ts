import type { SuiteCheck } from "./check-suite.js";
import { describeProblem } from "./suite-problem.js";

/** One line per problem, then `N tasks, M sessions checked (…): K problems` or `…: ok`. */
export function renderCheck(check: SuiteCheck): string {
  const what = check.level === "full" ? `cheap checks, and tests run for ${check.tested.length} of them` : "cheap checks only";
  const verdict = check.problems.length === 0 ? "ok" : `${check.problems.length} problem${check.problems.length === 1 ? "" : "s"}`;
  const summary = `${check.tasks} tasks, ${check.sessions} sessions checked (${what}): ${verdict}`;
  return `${[...check.problems.map(describeProblem), summary].join("\n")}\n`;
}

/** The check as one JSON object: level, counts, the tasks tested, and every problem with its file, line, field and text. */
export function checkJson(check: SuiteCheck): string {
  return `${JSON.stringify({ ok: check.problems.length === 0, ...check }, null, 2)}\n`;
}
