import type { Resumption } from "../run-dir/result-line.js";
import { openCodeSessionStarts } from "../suite/resumed-sessions.js";
import { FINALIZE } from "../suite/schema.js";
import { type FinishedSession, metric } from "./metric.js";
import { callRequests, requirementInCall } from "./received-context.js";
import { requestMessageIDs } from "./stored-requests.js";

/**
 * `resumption`: of a resumed session, its OpenCode sessions and which of the focus's earlier
 * requirements reached the first model call of the third session. With the faithful agent, what
 * it saw there (its rule phrases: what decides its files, hence the held-out tests); else, where
 * the calls were recorded, each earlier request word for word or as a record constraint citing it.
 */
export const resumptionMetric = metric("resumption", (session) => {
  const { spec, run } = session;
  if (spec.condition !== "resumed") return undefined;
  const focusEntries = spec.schedule.filter((entry) => entry.task === spec.focus && entry.stage !== FINALIZE);
  const returning = focusEntries.at(-1)?.stage;
  const requirements = focusEntries.slice(0, -1).map((entry) => entry.stage);
  const base: Resumption = { opencode_session_ids: run.opencodeSessionIDs ?? [run.opencodeSessionID], requirements };
  if (returning === undefined) return base;
  const carried = faithfulView(session, returning) ?? recordedView(session, requirements);
  if (carried === undefined) return base;
  return {
    ...base,
    carried: requirements.filter((id) => carried.ids.includes(id)),
    missed: requirements.filter((id) => !carried.ids.includes(id)),
    seen_by: carried.by,
  };
});

type Seen = { ids: string[]; by: NonNullable<Resumption["seen_by"]> };

/** The faithful agent's first write of the returning stage in the focus's checkout: the earlier stages it saw. */
function faithfulView({ decisions, focus }: FinishedSession, stage: string): Seen | undefined {
  const trim = (path: string) => path.replace(/\/+$/, "");
  const decision = decisions.find((candidate) => trim(candidate.workspace) === trim(focus.workspace) && candidate.stage === stage);
  return decision === undefined ? undefined : { ids: decision.seen, by: "rule phrase" };
}

/** The first recorded call of the third session's first request: the earlier requests it holds. */
function recordedView(session: FinishedSession, requirements: readonly string[]): Seen | undefined {
  const { calls, run, spec, messages, focus, state } = session;
  if (calls.length === 0) return undefined;
  const back = openCodeSessionStarts(spec).at(-1);
  const index = run.requests.findIndex((request) => request.entry === back && !request.continuation);
  if (index < 0) return undefined;
  const call = calls[callRequests(calls, run.requests).indexOf(index)];
  if (call === undefined) return undefined;
  const ids = requestMessageIDs(messages, run.requests);
  const inCall = requirementInCall(call, state.constraints ?? [], { numbered: true });
  const seen = requirements.filter((stage) => {
    const position = run.requests.findIndex((request) => request.task === spec.focus && request.stage === stage && !request.continuation);
    const request = focus.task.stages.find((candidate) => candidate.id === stage)?.request;
    return inCall(request, ids[position]) !== undefined;
  });
  return { ids: seen, by: "request or cited record" };
}
