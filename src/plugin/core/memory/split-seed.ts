import type { InteractionGroup } from "../interaction-groups.js";
import type { Ledger } from "../routing/ledger.js";
import type { TaskRecord } from "./record.js";
import { renderRecord } from "./render-record.js";
import { rememberedRequests } from "./uncovered-groups.js";

/** The tags around each request in a seed: a request may span lines, so each is delimited. */
export const SEED_REQUEST_OPEN = "<rcm-request";
const SEED_REQUEST_CLOSE = "</rcm-request>";

/**
 * The user's own words of each request whose place in `task` is settled, in session order
 * (file-only requests have none and are left out). A request still unsure, guessed to the
 * task, is not carried: it may be another task's, and stays in the old session.
 */
export function taskRequestTexts(groups: readonly InteractionGroup[], ledger: Ledger, task: string, threshold: number): string[] {
  const settled = rememberedRequests(ledger, threshold);
  return groups
    .filter((group) => group.kind === "request" && ledger.decisions[group.id]?.task === task && settled.has(group.id) && group.requestText !== "")
    .map((group) => group.requestText);
}

/** The numbers (as status and move count them) of the requests guessed to `task` whose place is not settled. */
export function unsureRequestNumbers(ledger: Ledger, task: string, threshold: number): number[] {
  const settled = rememberedRequests(ledger, threshold);
  return ledger.order.flatMap((id, position) => {
    const entry = ledger.decisions[id];
    return entry && !entry.shared && entry.task === task && !settled.has(id) ? [position + 1] : [];
  });
}

/**
 * The first message of a session a task was split out into (`/rcm split`): one line saying
 * where it comes from, the task's record as the model sees it in its old session, then the
 * user's requests in it, verbatim and in order, so the model starts where the task stood.
 * Without a record (router mode, or none written yet) the requests alone carry it.
 */
export function splitSeed(options: {
  ledger: Ledger;
  records: Readonly<Record<string, TaskRecord>>;
  task: string;
  requests: readonly string[];
  from: { sessionID: string; title?: string | undefined };
  recordTokens: number;
}): string {
  const { ledger, records, requests, from, recordTokens } = options;
  const task = ledger.tasks.find((candidate) => candidate.id === options.task);
  if (!task) throw new Error(`no task ${JSON.stringify(options.task)} in this session`);
  const record = records[task.id];
  const session = from.title ? `"${oneLine(from.title)}" (${from.sessionID})` : from.sessionID;
  const what = [record ? "its memory record" : "", requests.length > 0 ? "the user's requests in it, verbatim and oldest first" : ""]
    .filter(Boolean)
    .join(", then ");
  const lines = [
    `This session continues task ${task.id} "${oneLine(task.title)}" of OpenCode session ${session}, split out by the user${what ? `; below are ${what}` : ""}.`,
  ];
  if (record) lines.push("", renderRecord(record, { title: task.title, maxTokens: recordTokens }));
  requests.forEach((text, position) => {
    lines.push("", `${SEED_REQUEST_OPEN} n="${position + 1}">`, text, SEED_REQUEST_CLOSE);
  });
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
