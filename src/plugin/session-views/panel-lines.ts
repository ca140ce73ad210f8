import { keepsEveryTask, modeParts } from "../config/modes.js";
import { clip } from "../core/clip.js";
import { activeConstraints } from "../core/memory/record.js";
import type { LedgerEntry } from "../core/routing/ledger.js";
import { isConfident, lastRouted } from "../core/routing/ledger.js";
import type { SessionState } from "../store/session-state-file.js";
import { problemsLine } from "./config-problems.js";
import { resumedOrigin, sessionName } from "./earlier-tasks.js";
import { requestNumber, requestNumberRuns } from "./move-selection.js";
import { recallSummary } from "./recalls.js";
import { recordCallsOf, recordUseBrief, usedThisRecord } from "./record-calls.js";
import type { ViewSettings } from "./render-status.js";
import { callTallies, candidatesKept, heldRequests, lastEntry, taskRows } from "./render-status.js";
import { plural, surePercent, thresholdPercent, tokens } from "./words.js";

/** Asks (constraints in force) of the current task's record the panel lists; /rcm show has them all. */
const SHOWN_CONSTRAINTS = 3;

/** How a line is drawn: the panel maps tones to the theme's colours. */
export type Tone = "title" | "text" | "muted" | "current" | "warning";

export interface PanelLine {
  text: string;
  tone: Tone;
  /** Columns the line (and its wrapped rest) is set in by. */
  indent?: number;
}

/** What the panel knows: the options, the session's stored state, what waits in its inbox, the options' problems. */
export interface PanelInput {
  settings: ViewSettings;
  state: SessionState | undefined;
  /** Changes asked for from the TUI or the CLI that the server has not applied yet. */
  pending: number;
  problems: readonly string[];
  /** Characters a line may take in the sidebar (titles are clipped to fit). */
  width: number;
  /** Unfinished tasks the project's other sessions left (see unfinishedTasks); none given: 0. */
  earlierUnfinished?: number | undefined;
  /** State files skipped as unreadable while counting them (other sessions' files, the marks file; the CLI's list names each). */
  earlierUnreadable?: number | undefined;
  /** What "2 days ago" counts from (a resumed task's origin); default: now. */
  now?: Date | undefined;
}

/**
 * The sidebar's task panel, as lines: the tasks (current marked, status, requests, when
 * last active, title), the last decision in words, what the last model call kept and left
 * out, the tokens saved, and any option problem. Pure: the TUI draws it, tests read it.
 */
export function panelLines(input: PanelInput): PanelLine[] {
  const { settings, state, pending, problems, width } = input;
  const lines: PanelLine[] = [];
  const off = state?.off === true;
  lines.push({ text: `RCM · ${settings.mode}${off ? " · OFF" : ""}`, tone: "title" });
  // One line, whatever their number: the decision, the last call and the savings stay on screen (details: the toast, /rcm status).
  const problemsText = problemsLine(problems.length);
  if (problemsText) lines.push({ text: problemsText, tone: "warning" });
  if (!modeParts(settings.mode).routes) {
    lines.push({ text: "native mode: changes nothing", tone: "muted" });
    return lines;
  }
  // One line, not a list: the list is the CLI's, and the panel is narrow.
  const earlier = input.earlierUnfinished ?? 0;
  if (earlier > 0) lines.push({ text: `${plural(earlier, "unfinished task")} in earlier sessions: opencode-rcm tasks --all`, tone: "muted" });
  const unreadable = input.earlierUnreadable ?? 0;
  if (unreadable > 0) lines.push({ text: `${plural(unreadable, "unreadable state file")} skipped: opencode-rcm tasks --all names them`, tone: "warning" });
  if (!state || state.ledger.tasks.length === 0) {
    lines.push({ text: "No tasks yet: the first request opens t1.", tone: "muted" });
    return lines;
  }
  // Requests sent while off have no decision: the latest request is none of the tasks'.
  // Switched on again, they wait for the next request to be routed: the decision before them is no longer the latest.
  const waiting = state.whileOff?.length ?? 0;
  for (const row of taskRows(state.ledger, waiting)) {
    const mark = row.current ? "▶" : " ";
    lines.push({ text: `${mark} ${row.id} ${clip(row.title, Math.max(10, width - row.id.length - 3))}`, tone: row.current ? "current" : "text" });
    lines.push({ text: `${row.status} · ${requestNumberRuns(row.numbers) || "0 reqs"} · ${shortAgo(row.lastActive)}`, tone: "muted", indent: 4 });
    if (row.resumed) lines.push({ text: resumedOrigin(row.resumed, input.now ?? new Date()), tone: "muted", indent: 4 });
  }
  const last = lastEntry(state.ledger);
  if (off) {
    // The last decision is older than anything sent since: the panel says what holds now.
    lines.push({ text: "Off: every call gets the native history (/rcm on to resume)", tone: "warning" });
    if (waiting > 0) {
      lines.push({ text: "Latest request: no decision (off)", tone: "text" });
      lines.push({ text: `${plural(waiting, "request")} sent while off: routed when it is on`, tone: "muted", indent: 2 });
    }
  } else if (waiting > 0) {
    lines.push({ text: "On again: no decision yet", tone: "text" });
    lines.push({ text: `${plural(waiting, "request")} sent while off: routed with the next request`, tone: "muted", indent: 2 });
  } else if (last) {
    const percent = surePercent(last.confidence, settings.confidenceThreshold);
    // A request that opened its task: the confidence is that it is new at all.
    const opened = last.opened && last.router !== "user" && !last.shared && last.relabelled === undefined;
    const sure = last.router === "user" ? "you moved it" : last.shared ? "a rule for every task" : `${percent} sure`;
    if (opened) {
      // Its own line: the sidebar is narrow.
      lines.push({ text: `Last request: opened ${last.task}`, tone: "text" });
      lines.push({ text: `${percent} sure it is a new task`, tone: "text", indent: 2 });
    } else lines.push({ text: `Last request: ${last.task}, ${sure}`, tone: "text" });
    if (last.router !== "user" && !last.shared) lines.push({ text: clip(last.reason, width * 3), tone: "muted", indent: 2 });
    const { text, fallback } = panelConsequence(settings, state, last);
    lines.push({ text, tone: fallback ? "warning" : "muted", indent: 2 });
    const recalled = recallSummary(last);
    if (recalled) lines.push({ text: `Model recalled ${recalled}`, tone: "muted", indent: 2 });
    // The latest request pointed to an earlier session's task, not surely: nothing came in, the person is asked.
    const offer = state.resumeOffer;
    if (offer && offer.messageID === lastRouted(state.ledger)?.messageID)
      lines.push({ text: `Resume ${offer.task} of ${sessionName(offer.sessionTitle, offer.session)}? /rcm resume ${offer.task}`, tone: "warning" });
    if (modeParts(settings.mode).remembers) lines.push(...memoryLines(state, last.task, width));
  }
  const call = state.lastCall;
  if (call && !off && waiting === 0) {
    const { kept, left, replaced } = callTallies(call);
    lines.push({ text: `${callLabel(state, call.requestID)}: ${call.fallback ? "full history, " : ""}kept ${kept.join(", ") || "none"}`, tone: "text" });
    if (left.length > 0) lines.push({ text: `left out ${left.join(", ")}`, tone: "muted", indent: 2 });
    if (replaced.length > 0) lines.push({ text: `replaced by a record: ${replaced.join(", ")}`, tone: "muted", indent: 2 });
  }
  // What your moves left in place though its edits point elsewhere: the panel is where a TUI move's result shows.
  for (const hold of heldRequests(state)) {
    lines.push({ text: `Your move left #${hold.number} in ${hold.in}`, tone: "warning" });
    lines.push({ text: `its edits are ${hold.task}'s: /rcm move ${hold.number} ${hold.task}`, tone: "muted", indent: 2 });
  }
  const { saved } = state;
  lines.push({ text: `Saved ${tokens(saved.routingTokens + saved.memoryTokens)} tokens in ${plural(saved.calls, "call")}`, tone: "muted" });
  if (pending > 0) lines.push({ text: `${plural(pending, "change")} waiting for the next request`, tone: "warning" });
  return lines;
}

/**
 * The current task's memory record in brief: what was asked and is pending, whether the last
 * call of the task carried it, then the asks themselves with their request numbers.
 */
function memoryLines(state: SessionState, task: string, width: number): PanelLine[] {
  const record = state.records[task];
  const brought = state.resumed?.[task]?.records.at(-1);
  if (!record && brought)
    return [
      {
        text: `Memory of ${task}: its record from before, ${plural(activeConstraints(brought).length, "ask")}, ${brought.pending.length} pending`,
        tone: "text",
      },
    ];
  if (!record) return [{ text: `Memory of ${task}: written when its first turn ends`, tone: "muted" }];
  const asks = activeConstraints(record);
  const lines: PanelLine[] = [{ text: `Memory of ${task}: ${plural(asks.length, "ask")}, ${record.pending.length} pending`, tone: "text" }];
  const calls = recordCallsOf(state, task);
  const use = calls?.last;
  // "last call" when the session's last call was this task's; else the last of this task's calls.
  const which = state.lastCall?.record?.task === task ? "last call" : `last ${task} call`;
  const carried = use === undefined ? "no call has used it yet" : `${which}: ${recordUseBrief(use, usedThisRecord(use, record))}`;
  lines.push({ text: carried, tone: "muted", indent: 2 });
  for (const ask of asks.slice(0, SHOWN_CONSTRAINTS)) {
    const first = ask.sources.flatMap((source) => requestNumber(state.ledger, source) ?? []).sort((a, b) => a - b)[0];
    lines.push({ text: `• ${first === undefined ? "" : `#${first} `}${clip(ask.text.replace(/\s+/g, " "), width * 2)}`, tone: "muted", indent: 2 });
  }
  if (asks.length > SHOWN_CONSTRAINTS) lines.push({ text: `+${asks.length - SHOWN_CONSTRAINTS} more: /rcm show ${task}`, tone: "muted", indent: 2 });
  return lines;
}

/** "Last call", or what makes it older than the decision above it: a move since, or an earlier request (short: the sidebar is narrow). */
function callLabel(state: SessionState, requestID: string | undefined): string {
  const lastID = lastRouted(state.ledger)?.messageID;
  if (requestID === undefined || lastID === undefined) return "Last call";
  if (requestID !== lastID) return "Earlier call";
  return state.ledger.decisions[lastID]?.router === "user" ? "Call before the move" : "Last call";
}

/** What the last decision does to the model's view, in a few words (the sidebar is narrow). */
function panelConsequence(settings: ViewSettings, state: SessionState, entry: LedgerEntry): { text: string; fallback: boolean } {
  if (state.off) return { text: "full history: RCM is off", fallback: true };
  if (entry.shared) return { text: "full history: a rule for every task", fallback: true };
  if (!isConfident(entry, settings.confidenceThreshold)) {
    const could = candidatesKept(settings, state, entry);
    return { text: could ? `unsure: ${could.join(", ")} kept` : `full history: under ${thresholdPercent(settings.confidenceThreshold)} sure`, fallback: true };
  }
  if (state.ledger.tasks.length < 2) return { text: "one task so far: the whole session", fallback: false };
  if (keepsEveryTask(settings.mode)) return { text: "all tasks in view", fallback: false };
  return { text: `the model gets only ${entry.task}'s history`, fallback: false };
}

/** "latest request" stays; "3 requests ago" becomes "3 reqs ago" to fit a line. */
function shortAgo(lastActive: string): string {
  return lastActive.replace(/ requests? ago$/, (match) => (match.startsWith(" requests") ? " reqs ago" : " req ago"));
}
