import { join, posix } from "node:path";
import { isTestPath } from "../patch/is-test-path.js";
import { patchFiles } from "../patch/patch-files.js";
import { isNear } from "../suite/make-sessions.js";
import type { SessionSpec, Suite, Task } from "../suite/schema.js";
import { placeOf } from "./suite-places.js";
import { type Place, problemAt, type SuiteProblem } from "./suite-problem.js";

type Locality = SessionSpec["locality"];

/**
 * Sessions whose locality is not the definition's (`makeSessions`'s): a switched session is near
 * when a source directory of the focus's reference patch is one of an interruption's; an
 * uninterrupted session carries its switched twin's locality (far without a twin).
 */
export function localityProblems(options: { suite: Suite; places: Map<string, Place> }): SuiteProblem[] {
  const { suite, places } = options;
  const tasks = new Map(suite.tasks.map((task) => [task.instance_id, task]));
  const interruptionsOf = (session: SessionSpec): Task[] => session.interruptions.flatMap((id) => tasks.get(id) ?? []);
  const problems: SuiteProblem[] = [];
  for (const session of suite.sessions) {
    const focus = tasks.get(session.focus);
    if (focus === undefined) continue;
    const at = placeOf(places, session.session_id, join(suite.dir, "sessions.jsonl"));
    if (session.condition === "switched") {
      const expected: Locality = isNear(focus, interruptionsOf(session)) ? "near" : "far";
      if (session.locality !== expected)
        problems.push(problemAt(at, "locality", `"${session.locality}" but the definition gives "${expected}": ${why(focus, interruptionsOf(session))}`));
      continue;
    }
    const twin = suite.sessions.find((other) => other.condition === "switched" && other.focus === session.focus);
    const expected: Locality = twin !== undefined && isNear(focus, interruptionsOf(twin)) ? "near" : "far";
    if (session.locality === expected) continue;
    const reason = twin === undefined ? "it has no switched twin" : `its switched twin ${twin.session_id} is ${expected} by the definition`;
    problems.push(
      problemAt(
        at,
        "locality",
        `"${session.locality}" but the definition gives "${expected}": ${reason} (an uninterrupted session carries its twin's locality)`,
      ),
    );
  }
  return problems;
}

/** Why the definition says near or far: the directory shared, or the focus's directories none share. */
function why(focus: Task, interruptions: Task[]): string {
  const focusDirs = new Set(sourceDirs(focus));
  for (const task of interruptions) {
    const shared = sourceDirs(task).find((dir) => focusDirs.has(dir));
    if (shared !== undefined) return `${task.instance_id} changes a file in ${shared}/, as the focus does`;
  }
  return `no interruption changes a file in the focus's source directories (${[...focusDirs].map((dir) => `${dir}/`).join(", ") || "none"})`;
}

function sourceDirs(task: Task): string[] {
  return patchFiles(task.patch)
    .filter((path) => !isTestPath(path))
    .map((path) => posix.dirname(path));
}
