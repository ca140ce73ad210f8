import { RcmError } from "../../../kit/errors/rcm-error.js";
import { CONDITIONS, type Condition, FINALIZE, type ScheduleEntry, type SessionSpec } from "./schema.js";

/** The id of the resumed session the driver makes from a focus's switched session. */
function resumedSessionID(focus: string): string {
  return `${focus}__resumed`;
}

/**
 * A switched session's `resumed` twin: the focus's stages but the last, then every interruption
 * request in the switched order, then the focus's last stage and finalize, with the same
 * wording (the projection onto the focus is still the uninterrupted schedule). The driver runs
 * the three parts in three OpenCode sessions of one server (`openCodeSessionStarts`). Undefined
 * for a focus of one stage: no earlier requirement could be carried to the third session.
 */
export function resumedSession(switched: SessionSpec): SessionSpec | undefined {
  if (switched.condition !== "switched") return undefined;
  const focusStages = switched.schedule.filter((entry) => entry.task === switched.focus && entry.stage !== FINALIZE);
  const last = focusStages.at(-1);
  if (last === undefined || focusStages.length < 2) return undefined;
  const others = switched.schedule.filter((entry) => entry.task !== switched.focus);
  const schedule: ScheduleEntry[] = [...focusStages.slice(0, -1), ...others, last, { task: switched.focus, stage: FINALIZE }].map((entry) => ({ ...entry }));
  return {
    session_id: resumedSessionID(switched.focus),
    focus: switched.focus,
    condition: "resumed",
    locality: switched.locality,
    interruptions: [...switched.interruptions],
    schedule,
  };
}

/**
 * Where each OpenCode session of a session run starts, as schedule positions: one session from 0,
 * but for a resumed session three: the focus's first stages from 0, the interruptions from the
 * first other task's request, the focus's last stage and finalize from the focus's return.
 */
export function openCodeSessionStarts(spec: SessionSpec): number[] {
  if (spec.condition !== "resumed") return [0];
  const interrupted = spec.schedule.findIndex((entry) => entry.task !== spec.focus);
  const back = spec.schedule.findIndex((entry, index) => index > interrupted && entry.task === spec.focus);
  if (interrupted <= 0 || back <= interrupted) throw new Error(`${spec.session_id}: a resumed schedule is focus stages, interruptions, then the focus`);
  return [0, interrupted, back];
}

/**
 * The sessions a bench run runs: of the suite's first `count` sessions (all when undefined),
 * those of the asked conditions, and after each switched one its resumed twin when `resumed` is
 * asked (a focus of one stage has none). The suite's order is kept, so a run without `resumed`
 * runs exactly the sessions it ran before the condition existed.
 */
export function runSpecs(suiteSessions: readonly SessionSpec[], options: { count?: number | undefined; conditions: readonly Condition[] }): SessionSpec[] {
  const chosen = options.count === undefined ? suiteSessions : suiteSessions.slice(0, options.count);
  const ids = new Set(suiteSessions.map((spec) => spec.session_id));
  return chosen.flatMap((spec) => {
    const own = options.conditions.includes(spec.condition) ? [spec] : [];
    const twin = options.conditions.includes("resumed") ? resumedSession(spec) : undefined;
    if (twin === undefined) return own;
    if (ids.has(twin.session_id))
      throw new RcmError("usage", `the suite has a session "${twin.session_id}", the id the driver gives ${spec.focus}'s resumed session: rename it`);
    return [...own, twin];
  });
}

/** Conditions in the one order reports and run.json use. */
export function inConditionOrder(conditions: readonly Condition[]): Condition[] {
  return CONDITIONS.filter((condition) => conditions.includes(condition));
}
