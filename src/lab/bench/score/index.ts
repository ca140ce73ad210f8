export { applyPatch } from "./apply-patch.js";
export { failureClass } from "./failure-class.js";
export { findPython } from "./find-python.js";
export { focusPatch } from "./focus-patch.js";
export { parsePytestSummary } from "./parse-pytest.js";
export { ScoreHarnessError } from "./score-harness-error.js";
export { scoreTask, type TaskReport } from "./score-task.js";
