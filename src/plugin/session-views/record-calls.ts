import type { RecordUse } from "../core/context/call-report.js";
import type { TaskRecord } from "../core/memory/record.js";
import type { Ledger } from "../core/routing/ledger.js";
import type { RecordCall, RecordCalls, SessionState } from "../store/session-state-file.js";
import { requestNumber } from "./move-selection.js";
import { plural } from "./words.js";

/**
 * What a model call did with a task's memory record, as a clause after "the call": it
 * "carried t1's record in place of 3 earlier exchanges", or "did not carry it: every exchange it
 * covers was still in view". Never says a record was sent that was not.
 */
export function recordUseClause(use: RecordUse, what = `${use.task}'s memory record`): string {
  if (use.shown) {
    const trimmed = use.window === "record trimmed" ? ", trimmed to fit the model's window," : "";
    if (use.replaced > 0) return `carried ${what}${trimmed} in place of ${plural(use.replaced, "earlier exchange")}`;
    return `carried ${what}${trimmed}, replacing no exchange: a compaction had taken what it covers out of view`;
  }
  if (use.replaced > 0)
    return `did not carry ${what}, though ${plural(use.replaced, "earlier exchange")} it covers ${use.replaced === 1 ? "was" : "were"} left out`;
  if (use.window === "no room") return `did not carry ${what}: no room for it in the model's window, so the exchanges it covers went word for word`;
  if (use.compacted) return `did not carry ${what}: what it covers was in view or in a compaction summary that holds its requirements`;
  return `did not carry ${what}: every exchange it covers was still in view`;
}

/**
 * A few words for the sidebar: "carried it in place of 3 exchanges", "not carried (all it covers
 * in view)". `current`: the call had the record there is now, not an earlier version of it.
 */
export function recordUseBrief(use: RecordUse, current = true): string {
  const it = current ? "it" : "an earlier version";
  if (use.shown) return use.replaced > 0 ? `carried ${it} in place of ${plural(use.replaced, "exchange")}` : `carried ${it} (after a compaction)`;
  if (use.replaced > 0) return `not carried, ${plural(use.replaced, "exchange")} left out`;
  if (use.window === "no room") return "not carried (no room in the window)";
  return "not carried (all it covers in view)";
}

/**
 * How the model calls used a task's record: from the state, or, in a state written before it
 * was kept, from the last call. Calls that had a record since written anew (a move drops the
 * records of the tasks it touches) are no calls of the record there is now.
 */
export function recordCallsOf(state: SessionState, task: string): RecordCalls | undefined {
  const record = state.records[task];
  const ofThisRecord = (call: RecordCall | undefined) => (call !== undefined && (record === undefined || !writtenSince(call, record)) ? call : undefined);
  const kept = state.recordCalls?.[task];
  const lastCall = state.lastCall;
  const fromReport: RecordCall | undefined =
    kept === undefined && lastCall?.record?.task === task
      ? {
          ...lastCall.record,
          ...(lastCall.at === undefined ? {} : { at: lastCall.at }),
          ...(lastCall.requestID === undefined ? {} : { requestID: lastCall.requestID }),
        }
      : undefined;
  const last = ofThisRecord(kept?.last ?? fromReport);
  if (!last) return undefined;
  const carried = ofThisRecord(kept ? kept.carried : last.shown ? last : undefined);
  return { last, ...(carried ? { carried } : {}) };
}

/** The record was written anew after the call: it no longer covers what the call's record covered (an update only adds). */
function writtenSince(use: RecordUse, record: TaskRecord): boolean {
  if (use.covers > record.coverage.groups.length) return true;
  return use.through !== undefined && !record.coverage.groups.includes(use.through);
}

/** Whether a call used this very record, not an earlier version of it (a later update moves the coverage mark). */
export function usedThisRecord(use: RecordUse, record: TaskRecord): boolean {
  return use.covers === record.coverage.groups.length && (use.through === undefined || use.through === record.coverage.through);
}

/** A call's time as a person reads it: "14:02", in this machine's time zone. */
export function clockTime(at: number): string {
  const time = new Date(at);
  return `${String(time.getHours()).padStart(2, "0")}:${String(time.getMinutes()).padStart(2, "0")}`;
}

/** "request 4, 14:02": which request a call answered and when, as far as the state knows. */
function callWhen(ledger: Ledger, call: Pick<RecordCall, "requestID" | "at">, clock: (at: number) => string = clockTime): string {
  const number = call.requestID === undefined ? undefined : requestNumber(ledger, call.requestID);
  return [number === undefined ? undefined : `request ${number}`, call.at === undefined ? undefined : clock(call.at)].filter(Boolean).join(", ");
}

/**
 * The sentence `/rcm show` ends a record with: whether the last call of its task carried it,
 * which version, in place of how many exchanges, and when one last did if that one did not.
 */
export function recordCallSentence(state: SessionState, record: TaskRecord, clock: (at: number) => string = clockTime): string {
  const { task } = record;
  const calls = recordCallsOf(state, task);
  if (!calls) return `No model call has had this record yet: a call for ${task} carries it once it leaves out exchanges the record covers.`;
  const { ledger } = state;
  const at = (call: RecordCall) => {
    const when = callWhen(ledger, call, clock);
    return when === "" ? "" : ` (${when})`;
  };
  const version = (call: RecordCall) =>
    usedThisRecord(call, record)
      ? "this record"
      : `an earlier version of this record (covering ${plural(call.covers, "exchange")}; this one covers ${record.coverage.groups.length})`;
  const { last, carried } = calls;
  const first = `The last call for ${task}${at(last)} ${recordUseClause(last, last.shown ? version(last) : usedThisRecord(last, record) ? "it" : version(last))}.`;
  if (last.shown) return first;
  if (!carried) return `${first} No call has carried it yet.`;
  return `${first} The last call that did${at(carried)} carried ${version(carried)} in place of ${plural(carried.replaced, "earlier exchange")}.`;
}
