import { keepsEveryTask, modeParts } from "../config/modes.js";
import type { Options } from "../config/options-schema.js";
import { clip } from "../core/clip.js";
import type { CallReport } from "../core/context/call-report.js";
import { taskName } from "../core/memory/task-name.js";
import type { Ledger, LedgerEntry, ResumedFrom } from "../core/routing/ledger.js";
import { isConfident, lastRouted } from "../core/routing/ledger.js";
import type { SessionState } from "../store/session-state-file.js";
import { resumedSentence, sessionName } from "./earlier-tasks.js";
import { requestNumber, requestNumberRuns, taskRequestNumbers } from "./move-selection.js";
import { recallLines } from "./recalls.js";
import { recordUseClause } from "./record-calls.js";
import { plural, surePercent, thresholdPercent, tokens } from "./words.js";

/** What the words depend on: the mode (what a decision does) and the threshold (what "sure" means). */
export type ViewSettings = Pick<Options, "mode" | "router" | "confidenceThreshold" | "fallback">;

/** How the caller's user says things: how to switch back on, and what no state means there. */
export interface ViewWords {
  /** "/rcm-text on", "opencode-rcm on"...; default: the TUI's menu. */
  onCommand?: string;
  /** Why there is no state: the server answers for a sub-agent session, the TUI and CLI for one with nothing routed yet. */
  absent?: string;
  /** How to ask for a task's record here: for a person, or as the model gets it ("/rcm show t1 model"). */
  showCommand?: (task: string, asModel: boolean) => string;
}

const TUI_WORDS: Required<ViewWords> = {
  onCommand: "/rcm, then on",
  absent: "nothing has been routed in this session yet",
  showCommand: (task, asModel) => `/rcm show ${task}${asModel ? " model" : ""}`,
};

/** The words a surface speaks with: its own where it has them, the TUI's otherwise. */
export function viewWords(words: ViewWords = {}): Required<ViewWords> {
  return { ...TUI_WORDS, ...words };
}

/** `/rcm status`: on or off, the session's tasks, the current task, the last decision, the savings. */
export function renderStatus(options: ViewSettings, state: SessionState | undefined, words: ViewWords = {}, problems: readonly string[] = []): string {
  const status = renderSessionStatus(options, state, words);
  if (problems.length === 0) return status;
  return [status, `Config problems (${problems.length}; each option falls back to its default):`, ...problems.map((problem) => `  ${problem}`)].join("\n");
}

function renderSessionStatus(options: ViewSettings, state: SessionState | undefined, words: ViewWords): string {
  const { onCommand, absent } = viewWords(words);
  if (options.mode === "native") return "opencode-rcm is in native mode: it changes nothing (set mode in rcm.jsonc).";
  const head = `mode ${options.mode}, ${options.router} router, sure from ${thresholdPercent(options.confidenceThreshold)}`;
  if (!state) return `opencode-rcm: ${absent} (${head}).`;
  const { ledger, saved } = state;
  const lines = [state.off ? `opencode-rcm is OFF for this session: native history (${onCommand} to resume; ${head}).` : `opencode-rcm is on: ${head}.`];
  // Sent while off, routed with the first request once it is on again: until then, no decision is theirs.
  const unrouted = state.whileOff?.length ?? 0;
  lines.push(...renderTaskTable(ledger, unrouted));
  // Where a task taken up from an earlier session came from: its session, when, what was pending.
  const now = new Date();
  for (const row of taskRows(ledger, unrouted)) if (row.resumed) lines.push(`  ${resumedSentence({ id: row.id, resumed: row.resumed }, now)}`);
  const last = lastEntry(ledger);
  // Sent while off: no decision was made for it, and the one before is not the latest request's.
  if (unrouted > 0)
    lines.push(
      state.off
        ? `Latest request: no decision, opencode-rcm is off (${plural(unrouted, "request")} sent while off, routed once it is on).`
        : `Latest request: no decision yet (${plural(unrouted, "request")} sent while off, routed with the next request now that it is on).`,
    );
  if (last)
    lines.push(
      `${unrouted > 0 ? "Last routed request, before off" : "Last request"} (#${ledger.order.length}): ${describeDecision(ledger, last, options.confidenceThreshold)}`,
      `  ${consequence(options, state, last)}`,
    );
  lines.push(...heldLines(state));
  const total = saved.routingTokens + saved.memoryTokens;
  lines.push(
    `Saved so far: ${tokens(total)} tokens kept out of ${plural(saved.calls, "model call")} (routing ${tokens(saved.routingTokens)}, memory ${tokens(saved.memoryTokens)}; estimates).`,
  );
  return lines.join("\n");
}

/** A request a move left where it is although its edits are in `task`'s files: its number and the task it is in. */
export interface HeldRequest {
  number: number;
  in: string;
  task: string;
  files: readonly string[];
}

/** The requests your moves left where they are, while they still are (a later move of them by name ends it). */
export function heldRequests(state: SessionState): HeldRequest[] {
  const { ledger } = state;
  return (state.held ?? []).flatMap((hold) => {
    const entry = ledger.decisions[hold.messageID];
    const number = requestNumber(ledger, hold.messageID);
    return entry && number !== undefined && entry.router !== "user" && entry.task !== hold.task
      ? [{ number, in: entry.task, task: hold.task, files: hold.files }]
      : [];
  });
}

function heldLines(state: SessionState): string[] {
  const still = heldRequests(state);
  if (still.length === 0) return [];
  return [
    "Left where they are by your moves (their edits are in another task's files; move them to follow):",
    ...still.map(
      (hold) => `  #${hold.number} stays in ${hold.in}; its edits (${hold.files.join(", ")}) are in ${hold.task}'s files: move ${hold.number} ${hold.task}`,
    ),
  ];
}

/** A title's share of a task-table row: the row stays on one line of a dialog or terminal. */
const TABLE_TITLE_CHARS = 48;

/** The session's tasks, one line each: id, status, requests (with the numbers `move` takes), when last active, title. */
export function renderTaskTable(ledger: Ledger, unrouted = 0): string[] {
  const rows = taskRows(ledger, unrouted);
  if (rows.length === 0) return ["No tasks yet: the first request opens t1."];
  const counts = rows.map((row) => `${plural(row.requests, "request")} ${requestNumberRuns(row.numbers)}`);
  const width = Math.max(12, ...counts.map((count) => count.length));
  return [
    `Tasks (${rows.length}; #n: the request numbers move takes):`,
    ...rows.map(
      (row, index) =>
        `${row.current ? "*" : " "} ${row.id.padEnd(4)} ${row.status.padEnd(9)} ${(counts[index] ?? "").padEnd(width)}  ${row.lastActive.padEnd(15)} ${clip(row.title, TABLE_TITLE_CHARS)}`,
    ),
  ];
}

export interface TaskRow {
  id: string;
  title: string;
  current: boolean;
  /** A task split out (`/rcm split`) names the session it goes on in. */
  status: "current" | "suspended" | `split → ${string}`;
  requests: number;
  /** The numbers of its requests in the session (from 1, as `move` takes them). */
  numbers: number[];
  /** "latest request", "3 requests ago". */
  lastActive: string;
  /** Taken up from an earlier session: where it came from. */
  resumed?: ResumedFrom | undefined;
}

/**
 * The task table's rows, for the TUI's panel and the text views alike; `unrouted`: later
 * requests no task has (sent while off). A task that moves or relabels left without a
 * request is not listed (its id is not given to another task), unless it was split out.
 */
export function taskRows(ledger: Ledger, unrouted = 0): TaskRow[] {
  // A task the user resumed since the last request is what the next one carries on (as routing has it).
  const resumedNow = unrouted === 0 ? ledger.tasks.findLast((task) => task.resumed?.afterRequests === ledger.order.length)?.id : undefined;
  const current = resumedNow ?? lastEntry(ledger)?.task;
  return ledger.tasks.flatMap((task) => {
    const numbers = taskRequestNumbers(ledger, task.id);
    const last = numbers.at(-1);
    // A task resumed here waits for its first request: listed, so the person sees it arrived.
    if (last === undefined && !task.split && !task.resumed) return [];
    const since = last === undefined ? undefined : ledger.order.length - last + unrouted;
    return [
      {
        id: task.id,
        title: taskName(task.title),
        current: task.id === current,
        status: task.split ? `split → ${task.split.session}` : task.id === current ? "current" : "suspended",
        requests: numbers.length,
        numbers,
        lastActive: since === undefined ? "no requests" : since === 0 ? "latest request" : `${plural(since, "request")} ago`,
        ...(task.resumed ? { resumed: task.resumed } : {}),
      },
    ];
  });
}

/** `/rcm tasks`: the task table, then each listed task's goal as its memory record has it. */
export function renderTaskGoals(state: SessionState): string {
  // Counted as status counts them: requests sent while off are later than any routed one.
  const unrouted = state.whileOff?.length ?? 0;
  const rows = taskRows(state.ledger, unrouted);
  const goals = rows.map((row) => {
    const record = state.records[row.id];
    const pending = record && record.pending.length > 0 ? `; ${record.pending.length} pending` : "";
    return `${row.id} goal: ${record ? record.goal : "(no record yet)"}${pending}`;
  });
  return [...renderTaskTable(state.ledger, unrouted), ...(goals.length > 0 ? ["", ...goals] : [])].join("\n");
}

/** A decision in words: the task, how sure, and why ("t2 \"Fix the parser\", 92% sure: named its file src/parser.py"). */
export function describeDecision(ledger: Ledger, entry: LedgerEntry, threshold: number): string {
  const title = clip(taskName(ledger.tasks.find((task) => task.id === entry.task)?.title ?? ""), 60);
  if (entry.router === "user") return `${entry.task} "${title}": you moved it there.`;
  if (entry.shared) return `a rule for every task (kept with ${entry.task}), ${surePercent(entry.confidence, threshold)} sure.`;
  const what = `${entry.opened ? "new task " : ""}${entry.task} "${title}"`;
  // Opening a task, the confidence is that the request is new at all.
  return `${what}, ${surePercent(entry.confidence, threshold)} sure${entry.opened && !entry.relabelled ? " it is new" : ""}: ${entry.reason}.`;
}

/** With `fallback: "candidates"`, the tasks an unsure decision keeps, when that leaves some task out. */
export function candidatesKept(options: Pick<ViewSettings, "fallback">, state: SessionState, entry: LedgerEntry): string[] | undefined {
  const { candidates } = entry;
  if (options.fallback !== "candidates" || candidates === undefined || entry.shared) return undefined;
  return candidates.length < state.ledger.tasks.length ? candidates : undefined;
}

/** What the decision did to the model's view, and why the full history was kept when it was. */
function consequence(options: ViewSettings, state: SessionState, entry: LedgerEntry): string {
  if (state.off) return "The model sees the full history: opencode-rcm is off for this session.";
  if (entry.shared) return "The model sees the full history: a rule is meant for every task.";
  if (!isConfident(entry, options.confidenceThreshold)) {
    const unsure = `${surePercent(entry.confidence, options.confidenceThreshold)} is under ${thresholdPercent(options.confidenceThreshold)}`;
    const could = candidatesKept(options, state, entry);
    if (could) return `The model sees the tasks it could be (${could.join(", ")}): ${unsure}; the other tasks are left out.`;
    return `The model sees the full history: ${unsure}, not sure enough to leave anything out.`;
  }
  const memory = memoryNote(options, state, entry);
  if (state.ledger.tasks.length < 2) return `The model sees the whole session: it has one task so far.${memory}`;
  if (keepsEveryTask(options.mode)) return `Every task stays in view.${memory}`;
  return `The model sees only ${entry.task}'s history; the other tasks are left out.${memory}`;
}

/**
 * With memory on, what the last call answering the request did with its task's record, as
 * the call report has it: carried in place of how many exchanges, or not and why. Never a
 * record the call did not carry.
 */
function memoryNote(options: ViewSettings, state: SessionState, entry: LedgerEntry): string {
  if (!modeParts(options.mode).remembers) return "";
  const call = state.lastCall;
  const answered = call !== undefined && call.requestID !== undefined && call.requestID === lastRouted(state.ledger)?.messageID && call.task === entry.task;
  if (answered && call.record) return ` The last call ${recordUseClause(call.record)}.`;
  if (answered) return ` The last call had no memory record of ${entry.task} to carry.`;
  return state.records[entry.task] ? " No model call has answered it yet." : ` ${entry.task} has no memory record yet.`;
}

/** What the call carried from earlier sessions, and where the task it answered came from, if it was taken up from one. */
function resumedLines(report: CallReport, state: SessionState): string[] {
  const now = new Date();
  const tasks = state.ledger.tasks;
  const carried = (report.resumed ?? []).flatMap((id) => {
    const from = tasks.find((task) => task.id === id)?.resumed;
    if (!from) return [`Carried ${id}'s record from an earlier session.`];
    return [`Carried ${id}'s record from ${sessionName(from.sessionTitle, from.session)}.`];
  });
  const task = tasks.find((known) => known.id === report.task);
  const origin = task?.resumed ? [resumedSentence({ id: task.id, resumed: task.resumed }, now)] : [];
  return [...carried, ...origin].map((line) => `  ${line}`);
}

/** Relabelled requests `/rcm why` lists (the latest); the header says how many there are in all. */
const MAX_RELABELS_SHOWN = 10;

/** `/rcm why`: what the last model call received and why. */
export function renderWhy(options: ViewSettings, report: CallReport | undefined, state: SessionState | undefined, words: ViewWords = {}): string {
  const { onCommand } = viewWords(words);
  if (state?.off) return `opencode-rcm is off for this session: every model call gets the native history (${onCommand} to resume).`;
  if (!report) return "No model call of this session has passed through opencode-rcm yet.";
  const number = report.requestID === undefined || !state ? undefined : requestNumber(state.ledger, report.requestID);
  const entry = report.requestID === undefined ? undefined : state?.ledger.decisions[report.requestID];
  // The request opened the task it is guessed to (and is still in it): the doubt is whether it is new at all.
  const opened = entry?.opened === true && entry.router !== "user" && !entry.relabelled && entry.task === report.task;
  const lines = [`Last model call (mode ${options.mode}${number === undefined ? "" : `, answering request #${number}`}): ${callHead(options, report, opened)}`];
  lines.push(...callLines(report).map((line) => `  ${line}`));
  if (state) lines.push(...resumedLines(report, state));
  if (state) lines.push(...recallLines(state.ledger, report.requestID));
  lines.push(...relabelLines(state));
  return lines.join("\n");
}

/** One line on what the call was: narrowed to a task, or the full history and why. */
export function callHead(options: ViewSettings, report: CallReport, opened = false): string {
  const sure = report.confidence === undefined ? "" : `, ${surePercent(report.confidence, options.confidenceThreshold)} sure${opened ? " it is new" : ""}`;
  const guess = `${opened ? "opened" : "best guess"} ${report.task ?? "?"}${sure}`;
  if (report.fallback) return `the full history${report.task ? ` (${guess})` : ""}: ${report.reason}.`;
  if (report.confidence !== undefined && report.confidence < options.confidenceThreshold) return `the tasks it could be (${guess}): ${report.reason}.`;
  if (keepsEveryTask(options.mode)) return `task ${report.task ?? "?"}${sure}; every task stays in view.`;
  return `only ${report.task ?? "?"}'s history${sure}.`;
}

/** Kept, left out, replaced; the record; messages and tokens before and after. */
function callLines(report: CallReport): string[] {
  const { kept, left, replaced } = callTallies(report, labelOf);
  const { native, routingSaved, memorySaved } = report.tokens;
  return [
    `Kept (exchanges, this request's own included): ${kept.join(", ") || "none"}`,
    `Left out: ${left.join(", ") || "nothing"}`,
    ...(replaced.length > 0 ? [`Replaced by the task's record: ${replaced.join(", ")}`] : []),
    recordLine(report),
    `Messages ${report.messagesBefore} -> ${report.messagesAfter}; tokens ${tokens(native)} -> ${tokens(native - routingSaved - memorySaved)} (saved: routing ${tokens(routingSaved)}, memory ${tokens(memorySaved)}; estimates)`,
  ];
}

/** A call's exchanges per task, kept, left out and replaced, as "t2 3" pieces; `label` names a task (or `shared`). */
export function callTallies(report: CallReport, label: (id: string) => string = (id) => id): { kept: string[]; left: string[]; replaced: string[] } {
  const pieces = (count: (tally: CallReport["groups"][number]) => number) =>
    report.groups.filter((tally) => count(tally) > 0).map((tally) => `${label(tally.label)} ${count(tally)}`);
  return { kept: pieces((tally) => tally.kept), left: pieces((tally) => tally.dropped), replaced: pieces((tally) => tally.replaced) };
}

function recordLine(report: CallReport): string {
  const { record } = report;
  if (record) {
    // What the record covers counts exchanges of the whole session, in this call's view or not: not a share of the kept ones above.
    return `Record: the call ${recordUseClause(record, `${record.task}'s memory record`)} (the record covers ${plural(record.covers, "exchange")} of ${record.task} in all, in this call's view or not)`;
  }
  if (report.memory === undefined) return "Record: none (memory is off in this mode)";
  // A resumed task's record from its earlier session is said apart (resumedLines): this one is the session's own.
  const own = report.resumed?.includes(report.task ?? "") ? " in this session" : "";
  return `Record${own}: ${report.memory.replace(/^none \((.*)\)$/, "none: $1")}`;
}

function labelOf(label: string): string {
  return label === "shared" ? "rules for every task" : label;
}

/** Requests the session relabelled after their edits showed their task, the latest few. */
function relabelLines(state: SessionState | undefined): string[] {
  if (!state) return [];
  const { order, decisions } = state.ledger;
  const relabelled = order.flatMap((messageID, position) => {
    const entry = decisions[messageID];
    if (!entry?.relabelled) return [];
    const why = entry.relabelled.by === "recall" ? `the model recalled ${entry.task}'s history` : `its edits: ${entry.relabelled.files.join(", ")}`;
    return [`  request ${position + 1}: routed to ${entry.relabelled.from}, now ${entry.task} (${why})`];
  });
  if (relabelled.length === 0) return [];
  const by = Object.values(decisions).some((entry) => entry.relabelled?.by === "recall") ? "their edits or the model's recalls" : "their edits";
  const shown = relabelled.slice(-MAX_RELABELS_SHOWN);
  const which = shown.length < relabelled.length ? `the latest ${shown.length} of ${relabelled.length}` : `${relabelled.length}`;
  return [`Relabelled by ${by} (${which}; later routing and memory follow them):`, ...shown];
}

/** When a task without a record gets one, as the options have it (for `/rcm show`). */
export function whenRecordWritten(options: Pick<Options, "mode" | "memory">, task: string): string {
  if (!modeParts(options.mode).remembers) return `memory is off in mode ${options.mode}, so tasks get no records (mode memory or full writes them)`;
  return `one is written when the first turn of ${task} ends (a turn still running, or one routed below the confidence threshold, is not yet recorded)`;
}

/** The session's last routed request's decision. */
export function lastEntry(ledger: Ledger): LedgerEntry | undefined {
  return lastRouted(ledger)?.entry;
}
