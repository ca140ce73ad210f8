import { z } from "zod";
import { emptyLedger, LedgerSchema } from "../core/routing/ledger.js";
import { sessionStatePath } from "./state-dir.js";
import { versionedJsonFile, type VersionedJsonFile } from "./versioned-json-file.js";

/** Version 1: the routing ledger. Bump it when the persisted shape changes. */
export const SESSION_STATE_VERSION = 1;

export const SessionStateSchema = z.object({
  sessionID: z.string().min(1),
  ledger: LedgerSchema,
});
export type SessionState = z.infer<typeof SessionStateSchema>;

/** The file that holds one session's persisted RCM state. */
export function sessionStateFile(stateDir: string, sessionID: string): VersionedJsonFile<SessionState> {
  return versionedJsonFile({
    path: sessionStatePath(stateDir, sessionID),
    version: SESSION_STATE_VERSION,
    schema: SessionStateSchema,
    empty: () => ({ sessionID, ledger: emptyLedger() }),
  });
}
