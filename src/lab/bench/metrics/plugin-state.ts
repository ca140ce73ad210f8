import type { AuxUsage } from "../../../plugin/core/routing/decision.js";
import type { Ledger } from "../../../plugin/core/routing/ledger.js";
import { readSessionState } from "../../../plugin/store/read-session-state.js";

/** A memory-record constraint as stored: its text and the user messages it came from. */
export interface CitingConstraint {
  text: string;
  sources: readonly string[];
}

/** What the metrics read of the plug-in's state for a session; empty when it kept none or its file could not be read. */
export interface PluginState {
  ledger?: Ledger;
  memoryAux?: AuxUsage[];
  constraints?: CitingConstraint[];
  /** Why the state file could not be read (it is left where it is). */
  unreadable?: string;
}

/**
 * The plug-in's ledger, memory-update costs and record constraints for a session, read
 * read-only: the bench never moves or rewrites the plug-in's files.
 */
export async function readPluginState(stateDir: string, sessionID: string): Promise<PluginState> {
  const read = await readSessionState(stateDir, sessionID);
  if (read.status === "unreadable") return { unreadable: `${read.file}: ${read.reason}` };
  if (read.status !== "loaded") return {};
  const { ledger, memoryUpdates, records } = read.state;
  const constraints = Object.values(records).flatMap((record) => record.constraints);
  return { ledger, memoryAux: memoryUpdates.flatMap((update) => (update.aux ? [update.aux] : [])), constraints };
}

/**
 * The plug-in's state over a session run's OpenCode sessions (a resumed session has three), read
 * read-only: routing decisions are keyed by message id, so the three ledgers' decisions are
 * merged as one; memory costs and record constraints are added up.
 */
export async function readPluginStates(stateDir: string, sessionIDs: readonly string[]): Promise<PluginState> {
  const states = await Promise.all(sessionIDs.map((id) => readPluginState(stateDir, id)));
  if (states.length === 1) return states[0] as PluginState;
  return mergePluginStates(states);
}

export function mergePluginStates(states: readonly PluginState[]): PluginState {
  const ledgers = states.flatMap((state) => (state.ledger ? [state.ledger] : []));
  const unreadable = states.flatMap((state) => (state.unreadable ? [state.unreadable] : []));
  const merged: PluginState = {};
  if (ledgers.length > 0)
    merged.ledger = {
      tasks: ledgers.flatMap((ledger) => ledger.tasks),
      decisions: Object.assign({}, ...ledgers.map((ledger) => ledger.decisions)),
      order: ledgers.flatMap((ledger) => ledger.order),
    };
  if (states.some((state) => state.memoryAux)) merged.memoryAux = states.flatMap((state) => state.memoryAux ?? []);
  if (states.some((state) => state.constraints)) merged.constraints = states.flatMap((state) => state.constraints ?? []);
  if (unreadable.length > 0) merged.unreadable = unreadable.join("; ");
  return merged;
}
