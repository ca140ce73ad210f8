import { z } from "zod";
import { TaskRecordSchema } from "../core/memory/record.js";
import { AuxUsageSchema } from "../core/routing/decision.js";
import { emptyLedger, LedgerSchema } from "../core/routing/ledger.js";
import { sessionStatePath } from "./state-dir.js";
import { versionedJsonFile, type VersionedJsonFile } from "./versioned-json-file.js";

/**
 * Version 2: the routing ledger, the tasks' memory records and the memory updates' usage.
 * Version 1 (the ledger alone) is read and upgraded. Bump it when the persisted shape changes.
 */
export const SESSION_STATE_VERSION = 2;

/** One memory update, for accounting: the aux model's cost counts like the agent's own. */
export const MemoryUpdateLogSchema = z.object({
  task: z.string().min(1),
  updater: z.enum(["model", "extractive"]),
  groups: z.number().int().min(0),
  ok: z.boolean(),
  aux: AuxUsageSchema.optional(),
});
export type MemoryUpdateLog = z.infer<typeof MemoryUpdateLogSchema>;

export const SessionStateSchema = z.object({
  sessionID: z.string().min(1),
  ledger: LedgerSchema,
  /** Keyed by task id. */
  records: z.record(z.string(), TaskRecordSchema),
  memoryUpdates: z.array(MemoryUpdateLogSchema),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

/** The file that holds one session's persisted RCM state: ledger and records, written together. */
export function sessionStateFile(stateDir: string, sessionID: string): VersionedJsonFile<SessionState> {
  return versionedJsonFile({
    path: sessionStatePath(stateDir, sessionID),
    version: SESSION_STATE_VERSION,
    schema: SessionStateSchema,
    empty: () => ({ sessionID, ledger: emptyLedger(), records: {}, memoryUpdates: [] }),
    migrations: {
      1: (data) => (typeof data === "object" && data !== null ? { records: {}, memoryUpdates: [], ...data } : data),
    },
  });
}
