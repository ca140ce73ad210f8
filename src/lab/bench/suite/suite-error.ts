import { type InputLocation, RcmError } from "../../../kit/errors/rcm-error.js";

/** A problem in a suite's files (code `suite`), located by file, line and field in its `location`. */
export function suiteError(location: InputLocation & { cause?: unknown }): RcmError {
  const { cause, ...at } = location;
  const where = at.line === 0 ? at.file : `${at.file}:${at.line}`;
  return new RcmError("suite", `${where}: ${at.field}: ${at.problem}`, { cause, location: at });
}
