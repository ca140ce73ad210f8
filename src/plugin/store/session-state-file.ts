import { z } from "zod";
import { CallReportSchema, RecordUseSchema } from "../core/context/call-report.js";
import { ShownRecordsSchema } from "../core/context/shown-record.js";
import { TaskRecordSchema } from "../core/memory/record.js";
import { AuxUsageSchema } from "../core/routing/decision.js";
import { emptyLedger, LedgerSchema } from "../core/routing/ledger.js";
import type { Evidence } from "../core/routing/task-index.js";
import { sessionStatePath } from "./state-dir.js";
import { type VersionedJsonFile, versionedJsonFile } from "./versioned-json-file.js";

/**
 * Version 4: the routing ledger, the tasks' memory records, the memory updates' usage, the
 * user's on/off switch, what the plug-in saved and what the last model call received (read
 * by the TUI's task panel and the CLI, which run in other processes). Versions 1 (the ledger
 * alone), 2 (no switch, no savings) and 3 (no last call) are read and upgraded. Bump it when
 * the persisted shape changes.
 */
export const SESSION_STATE_VERSION = 4;

/** Estimated tokens the plug-in kept out of this session's model calls. */
const SavingsSchema = z.object({
  calls: z.number().int().min(0),
  routingTokens: z.number().int().min(0),
  memoryTokens: z.number().int().min(0),
});
export type Savings = z.infer<typeof SavingsSchema>;
export const NO_SAVINGS: Savings = { calls: 0, routingTokens: 0, memoryTokens: 0 };

/** One memory update, for accounting: the aux model's cost counts like the agent's own. */
const MemoryUpdateLogSchema = z.object({
  task: z.string().min(1),
  updater: z.enum(["model", "extractive"]),
  groups: z.number().int().min(0),
  ok: z.boolean(),
  aux: AuxUsageSchema.optional(),
  /** What the update read: the last call's view (nothing or the newest messages from OpenCode), or the whole session. */
  read: z.enum(["view", "whole"]).optional(),
});
export type MemoryUpdateLog = z.infer<typeof MemoryUpdateLogSchema>;

/** A model call's use of a task's record (see RecordUseSchema), with when it was made and which request it answered. */
const RecordCallSchema = RecordUseSchema.extend({ at: z.number().optional(), requestID: z.string().optional() });
export type RecordCall = z.infer<typeof RecordCallSchema>;

/** One task's record as the model calls used it: the last call that had it (sent or not), and the last that sent it. */
const RecordCallsSchema = z.object({ last: RecordCallSchema, carried: RecordCallSchema.optional() });
export type RecordCalls = z.infer<typeof RecordCallsSchema>;

/** What one request of a task showed, as the router indexes it (task-index.ts `Evidence`). */
const EvidenceSchema = z.object({
  text: z.string().optional(),
  paths: z.array(z.string()).optional(),
  workspaces: z.array(z.string()).optional(),
  symbols: z.array(z.string()).optional(),
});

type StoredEvidence = z.infer<typeof EvidenceSchema>;

/** Evidence as the state file keeps it (only the fields it has). */
export function storedEvidence(evidence: Evidence): StoredEvidence {
  return {
    ...(evidence.text === undefined ? {} : { text: evidence.text }),
    ...(evidence.paths ? { paths: [...evidence.paths] } : {}),
    ...(evidence.workspaces ? { workspaces: [...evidence.workspaces] } : {}),
    ...(evidence.symbols ? { symbols: [...evidence.symbols] } : {}),
  };
}

/** Evidence read back from the state file, for the router's index. */
export function indexedEvidence(stored: StoredEvidence): Evidence {
  return {
    ...(stored.text === undefined ? {} : { text: stored.text }),
    ...(stored.paths ? { paths: stored.paths } : {}),
    ...(stored.workspaces ? { workspaces: stored.workspaces } : {}),
    ...(stored.symbols ? { symbols: stored.symbols } : {}),
  };
}

/** A task resumed from an earlier session: the records it had there (oldest first) and what its requests there showed. */
const ResumedTaskSchema = z.object({ records: z.array(TaskRecordSchema), evidence: z.array(EvidenceSchema) });
export type ResumedTask = z.infer<typeof ResumedTaskSchema>;

/** The latest request pointed to an earlier session's task, not surely: offered, nothing brought in. */
const ResumeOfferSchema = z.object({
  messageID: z.string().min(1),
  session: z.string().min(1),
  task: z.string().min(1),
  title: z.string(),
  sessionTitle: z.string().optional(),
  lastActive: z.string().min(1),
  why: z.string(),
});
export type ResumeOffer = z.infer<typeof ResumeOfferSchema>;

export const SessionStateSchema = z.object({
  sessionID: z.string().min(1),
  ledger: LedgerSchema,
  /** Keyed by task id. */
  records: z.record(z.string(), TaskRecordSchema),
  memoryUpdates: z.array(MemoryUpdateLogSchema),
  /** `/rcm off`: the session gets its native history until `/rcm on`. */
  off: z.boolean(),
  saved: SavingsSchema,
  /** What the session's last model call received; written once per turn. */
  lastCall: CallReportSchema.optional(),
  /** Requests sent while the user had it off, in order: routed when it is switched on again, so none stays unassigned. */
  whileOff: z.array(z.object({ messageID: z.string().min(1), text: z.string() })).optional(),
  /**
   * Per task, the record text its model calls are given and what it stands for, kept byte for
   * byte until the cut of replaced exchanges moves (the provider's prefix cache). Files written
   * before it have none: the next call renders the record anew.
   */
  shownRecords: ShownRecordsSchema.optional(),
  /**
   * Requests a user's move left where they were although their edits now land in another
   * task's files (the moved requests gave that task the files): the edits never relabel them,
   * so a move changes only the requests it names. Files written before it have none.
   */
  held: z.array(z.object({ messageID: z.string().min(1), task: z.string().min(1), files: z.array(z.string()) })).optional(),
  /** Keyed by task id: what the model calls did with the task's record (files written before it have none). */
  recordCalls: z.record(z.string(), RecordCallsSchema).optional(),
  /** Keyed by task id: tasks taken up from earlier sessions (the ledger's `resumed`). Files written before it have none. */
  resumed: z.record(z.string(), ResumedTaskSchema).optional(),
  resumeOffer: ResumeOfferSchema.optional(),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

/** The file that holds one session's persisted RCM state: ledger and records, written together. */
export function sessionStateFile(stateDir: string, sessionID: string): VersionedJsonFile<SessionState> {
  return versionedJsonFile({
    path: sessionStatePath(stateDir, sessionID),
    version: SESSION_STATE_VERSION,
    schema: SessionStateSchema,
    empty: () => ({ sessionID, ledger: emptyLedger(), records: {}, memoryUpdates: [], off: false, saved: NO_SAVINGS }),
    migrations: {
      1: (data) => (typeof data === "object" && data !== null ? { records: {}, memoryUpdates: [], off: false, saved: NO_SAVINGS, ...data } : data),
      2: (data) => (typeof data === "object" && data !== null ? { off: false, saved: NO_SAVINGS, ...data } : data),
      3: (data) => data,
    },
  });
}
