import type { AuxUsage } from "../routing/decision.js";
import type { LedgerTask } from "../routing/ledger.js";
import type { GroupDigest } from "./group-digest.js";
import type { TaskRecord } from "./record.js";

/** What an updater gets: the task, its record so far, and the next batch of uncovered groups. */
export interface MemoryUpdateInput {
  task: LedgerTask;
  previous: TaskRecord | undefined;
  /** The task's groups the record does not cover yet, oldest first; finished turns only. */
  batch: readonly GroupDigest[];
  /** Every user message id routed to the task, in routing order: the only valid constraint sources. */
  requestIDs: readonly string[];
  /** The OpenCode session (a model updater calls OpenCode's models for it). */
  sessionID?: string | undefined;
  /** The project's root directory: a record's files are shown relative to it. */
  root?: string | undefined;
}

type MemoryUpdateResult =
  | { ok: true; record: TaskRecord }
  /** The previous record stays in place; `reason` says why. */
  | { ok: false; reason: string; aux?: AuxUsage };

/** How many groups (and estimated tokens of them) one update may take. */
export interface BatchLimits {
  maxGroups: number;
  maxTokens: number;
}

/** Turns the previous record plus a batch of new groups into the next record. */
export interface MemoryUpdater {
  readonly name: "model" | "extractive";
  readonly limits: BatchLimits;
  /** Cheap enough (no model call) to bring a record up to date at every finished turn. */
  readonly everyTurn: boolean;
  update(input: MemoryUpdateInput): Promise<MemoryUpdateResult>;
}
