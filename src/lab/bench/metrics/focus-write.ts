import type { FaithfulDecision } from "../agent/faithful-agent.js";
import type { FocusWrite } from "../run-dir/result-line.js";
import { metric } from "./metric.js";
import { SessionLog } from "./request-log.js";

/** The faithful agent's decisions of one mode (`model-requests/<mode>.decisions.jsonl`), per session. */
export type SessionDecisionLog = SessionLog<FaithfulDecision>;

export function openDecisionLog(file: string): Promise<SessionDecisionLog> {
  return SessionLog.open(file, (value) => value as FaithfulDecision);
}

/**
 * What the focus task's files hold at the end, as the faithful agent decided them: its last
 * write in the focus workspace (every stage of a task writes the same files). Undefined when
 * the agent logs no decisions (the replay agent, a provider's model) or never wrote there.
 */
export function focusWrite(decisions: readonly FaithfulDecision[], focusWorkspace: string): FocusWrite | undefined {
  const trim = (path: string) => path.replace(/\/+$/, "");
  const last = decisions.findLast((decision) => trim(decision.workspace) === trim(focusWorkspace));
  return last === undefined ? undefined : { wrote: last.wrote, lost: last.lost, leaked: last.leaked };
}

/** `focus_write`: with the faithful agent, what its last write of the focus task was made from. */
export const focusWriteMetric = metric("focus_write", ({ decisions, focus }) => focusWrite(decisions, focus.workspace));
