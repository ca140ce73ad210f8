import { messageOf } from "../../kit/errors/message-of.js";
import { toInteractionGroups } from "../core/interaction-groups.js";
import { splitSeed, taskRequestTexts, unsureRequestNumbers } from "../core/memory/split-seed.js";
import type { MessageWithParts } from "../core/messages.js";
import { type LedgerTask, markSplit } from "../core/routing/ledger.js";
import type { StoredSession } from "./live-session.js";
import type { Logger } from "./logger.js";
import type { SessionSource } from "./session-source.js";
import type { SessionStore } from "./session-store.js";

/** What a split asks of the host, behind a port so tests and other hosts can supply it. */
export interface SplitHost {
  /** The session's title and directory. */
  describe(sessionID: string): Promise<{ title: string | undefined; directory: string | undefined }>;
  /** Opens a top-level session; its id. */
  create(options: { title: string; directory: string | undefined }): Promise<string>;
  /**
   * One user message the model receives on the session's first turn, with no reply asked for
   * now: `text` for the model (synthetic: the person's view and the router leave it out),
   * `note` for the person (ignored: the model never gets it).
   */
  seed(
    sessionID: string,
    message: { text: string; note: string; model?: { providerID: string; modelID: string } | undefined; agent?: string | undefined },
  ): Promise<void>;
  /** Brings the session on screen in the TUI (nothing happens without one). */
  show(sessionID: string): Promise<void>;
}

/** What a split did: the task, the session it goes on in, and what that session was seeded with. */
export interface SplitDone {
  task: LedgerTask;
  sessionID: string;
  title: string;
  requests: number;
  record: boolean;
  /** Requests guessed to the task whose place was not settled: left in the old session (numbered as status counts them). */
  unsure: number[];
}

/** `/rcm split`: a task goes on in its own OpenCode session. */
export interface SessionSplit {
  /** Inside a store step (verb-dispatcher.ts): splits the task out; throws why it cannot. */
  applySplit(session: StoredSession, task: string): Promise<SplitDone>;
}

/**
 * Splits a task out of a session: opens a session titled after it, seeds it with the task's
 * record and its requests (split-seed.ts), marks the task split in the old session's ledger
 * (the router sends it no more requests) and brings the new session on screen.
 */
export function createSessionSplit(deps: {
  store: SessionStore;
  source: SessionSource;
  host: SplitHost;
  logger: Logger;
  recordTokens: number;
  /** Requests routed below it and not settled since stay in the old session. */
  threshold: number;
}): SessionSplit {
  const { store, source, host, logger } = deps;

  const applySplit = async (session: StoredSession, id: string): Promise<SplitDone> => {
    const { sessionID, state } = session;
    const task = state.ledger.tasks.find((candidate) => candidate.id === id);
    if (!task) throw new Error(`no task ${id} in this session (tasks: ${state.ledger.tasks.map((known) => known.id).join(", ") || "none"})`);
    if (task.split) throw new Error(`${id} is split out already, into ${task.split.session}`);
    const messages = await source.messages(sessionID);
    const requests = taskRequestTexts(toInteractionGroups(messages), state.ledger, id, deps.threshold);
    const unsure = unsureRequestNumbers(state.ledger, id, deps.threshold);
    const from = await host.describe(sessionID);
    const title = `${task.title} (split from ${from.title || sessionID})`;
    const created = await host.create({ title, directory: from.directory });
    const text = splitSeed({
      ledger: state.ledger,
      records: state.records,
      task: id,
      requests,
      from: { sessionID, title: from.title },
      recordTokens: deps.recordTokens,
    });
    const record = state.records[id] !== undefined;
    const note = `opencode-rcm: ${id} "${task.title}" split from ${from.title ? `"${from.title}" (${sessionID})` : sessionID}; the model gets ${record ? "its record and " : ""}its ${requests.length === 1 ? "request" : `${requests.length} requests`} with your first request here${unsure.length > 0 ? ` (not ${unsure.map((number) => `#${number}`).join(", ")}: unsure, maybe ${id}'s, left in the old session)` : ""}.`;
    await host.seed(created, { text, note, ...lastSettings(messages) });
    await store.commit(session, { ...state, ledger: markSplit(state.ledger, id, created) });
    await logger.log(
      "info",
      `split ${id} "${task.title}" out into session ${created}, seeded with ${record ? "its record and " : ""}${requests.length} requests`,
      { sessionID, newSessionID: created },
    );
    // The split stands without a TUI to show it in.
    await host.show(created).catch((error: unknown) => logger.log("warn", `could not show the split session in the TUI: ${messageOf(error)}`, { sessionID }));
    return { task, sessionID: created, title, requests: requests.length, record, unsure };
  };

  return { applySplit };
}

/** The model and agent of the session's latest request: the new session starts with them. */
function lastSettings(messages: readonly MessageWithParts[]): { model?: { providerID: string; modelID: string }; agent?: string } {
  const info = messages.findLast((message) => message.info.role === "user")?.info;
  if (info?.role !== "user") return {};
  return { model: { providerID: info.model.providerID, modelID: info.model.modelID }, agent: info.agent };
}
