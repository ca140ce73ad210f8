import { showTask } from "../core/memory/describe-tasks.js";
import { activeConstraints, type Constraint, overriddenConstraints, type TaskRecord } from "../core/memory/record.js";
import { unsureRequestNumbers } from "../core/memory/split-seed.js";
import { taskName } from "../core/memory/task-name.js";
import { rememberedRequests } from "../core/memory/uncovered-groups.js";
import type { Ledger } from "../core/routing/ledger.js";
import type { SessionState } from "../store/session-state-file.js";
import { requestNumber } from "./move-selection.js";
import { clockTime, recordCallSentence } from "./record-calls.js";
import { plural } from "./words.js";

/**
 * `/rcm show <task>` and `opencode-rcm show`: a task's memory record for a person, apart from
 * the text the model gets (render-record.ts). Every field, each requirement with the requests
 * it came from (`#3`: numbered as `/rcm status` and `move` count them), pending items that
 * repeat a requirement shown as a reference to it, which requests the record covers, and
 * whether the last call of the task carried it. Pure. Throws, naming the known tasks, for a
 * task the session does not have.
 */
export function renderRecordForPerson(options: {
  state: SessionState;
  task: string;
  /** When a missing record will be written (the options decide). */
  whenWritten: string;
  /** The routing threshold: requests below it whose place was not settled are not the record's. */
  threshold: number;
  /** How this surface shows the text the model gets ("/rcm show t1 model"). */
  modelTextHint?: string | undefined;
  clock?: (at: number) => string;
}): string {
  const { state, whenWritten, modelTextHint, threshold, clock = clockTime } = options;
  const { ledger } = state;
  const task = knownTask(ledger, options.task);
  const record = state.records[task.id];
  if (!record) return `${task.id}: ${oneLine(taskName(task.title))}\nNo memory record yet: ${whenWritten}.`;
  const lines = [`Memory record of ${task.id} "${oneLine(taskName(task.title))}"`];
  lines.push(`Goal: ${oneLine(record.goal) || "(none yet)"}`);
  const unsure = unsureRequestNumbers(ledger, task.id, threshold);
  lines.push(coverageLine(ledger, record, threshold, unsure.length > 0));
  if (unsure.length > 0)
    lines.push(
      `Unsure, maybe ${task.id}'s: ${numberList(unsure)} (routed here as a guess: kept word for word in the history, not in this record until settled; /rcm move settles one)`,
    );
  const active = activeConstraints(record);
  lines.push(active.length === 0 ? "Asked for: nothing recorded as a requirement yet" : `Asked for, in force (${active.length}):`);
  // Numbered as the model's text numbers them, so "ask 2" is the same ask in both.
  active.forEach((constraint, index) => {
    lines.push(`  ${index + 1}. ${oneLine(constraint.text)}  ${sources(ledger, constraint.sources)}`);
  });
  if (active.length > 0) lines.push("  (#N after an ask: the request it came from, numbered as status and move count them)");
  const overridden = overriddenConstraints(record);
  if (overridden.length > 0) {
    lines.push(`Overridden by a later request (${overridden.length}; the model is told not to apply them):`);
    for (const constraint of overridden)
      lines.push(`  - ${oneLine(constraint.text)}  ${sources(ledger, constraint.sources)}; ${overriddenBy(ledger, constraint)}`);
  }
  lines.push(...pendingLines(record, active));
  if (record.progress.length > 0) {
    lines.push(`Progress (${record.progress.length}, shown by tool results, dead ends included):`);
    for (const item of record.progress) lines.push(`  ${oneLine(item.text)}${requestTag(ledger, item.sources)}`);
  }
  if (record.files.length > 0) lines.push(`Files (${record.files.length}): ${record.files.join(", ")}`);
  if (record.uncertainties.length > 0) {
    lines.push(`Uncertainties (${record.uncertainties.length}):`);
    for (const item of record.uncertainties) lines.push(`  ${oneLine(item)}`);
  }
  lines.push(recordCallSentence(state, record, clock));
  if (modelTextHint) lines.push(`The text the model gets: ${modelTextHint}`);
  return lines.join("\n");
}

/**
 * The text the model gets for a task's record, word for word, under a line that says so (the
 * record's tags and its words to the model would read as the plug-in's words to a person).
 */
export function renderRecordAsModelGetsIt(options: {
  state: SessionState;
  task: string;
  recordTokens: number;
  whenWritten: string;
  threshold: number;
  personHint?: string | undefined;
}): string {
  const { state, recordTokens, whenWritten, threshold, personHint } = options;
  const task = knownTask(state.ledger, options.task);
  if (!state.records[task.id]) return renderRecordForPerson({ state, task: task.id, whenWritten, threshold });
  const text = showTask(state.ledger, state.records, task.id, recordTokens);
  const person = personHint ? `; ${personHint} shows it for a person` : "";
  return `The text the model gets for ${task.id}'s record, word for word (only a call that leaves out exchanges it covers carries it${person}):\n\n${text}`;
}

/** The task of that id; throws naming the session's tasks when there is none. */
function knownTask(ledger: Ledger, id: string): Ledger["tasks"][number] {
  const task = ledger.tasks.find((candidate) => candidate.id === id);
  if (task) return task;
  const known = ledger.tasks.map((candidate) => candidate.id).join(", ") || "none";
  throw new Error(`no task ${JSON.stringify(id)} in this session (tasks: ${known})`);
}

/**
 * Which requests the record accounts for, who wrote it, and the task's settled requests it does
 * not cover yet, with why (a turn still running, or settled since the last update).
 */
function coverageLine(ledger: Ledger, record: TaskRecord, threshold: number, anyUnsure: boolean): string {
  const covered = numbers(ledger, record.coverage.groups);
  const coveredSet = new Set(covered);
  const settled = rememberedRequests(ledger, threshold);
  const ofTask = ledger.order.flatMap((id, position) => (ledger.decisions[id]?.task === record.task && settled.has(id) ? [position + 1] : []));
  const missing = ofTask.filter((number) => !coveredSet.has(number));
  const writer = record.lastUpdate.updater === "model" ? "the auxiliary model" : "the extractive updater (no model)";
  const what = covered.length > 0 ? `Covers ${numberList(covered)}` : `Covers ${plural(record.coverage.groups.length, "exchange")}`;
  const them = missing.length === 1 ? "it" : "them";
  // The extractive updater runs after every turn; a model updater waits for a batch worth replacing.
  const why =
    record.lastUpdate.updater === "model"
      ? `the auxiliary model updates in batches and before OpenCode compacts: a later update takes ${them}`
      : `${missing.length === 1 ? "its turn is" : "their turns are"} still running or settled since: the next update takes ${them}`;
  const rest = missing.length === 0 ? `every ${anyUnsure ? "settled " : ""}request of ${record.task} so far` : `not yet ${numberList(missing)}: ${why}`;
  return `${what} (${rest}); written by ${writer}.`;
}

/**
 * Pending work in its two states (done is what is not listed): not started, and worked on (an edit,
 * no passing test run since). Items that repeat an ask in force point at its number ("asks 1 and 3,
 * above"), the rest in full.
 */
function pendingLines(record: TaskRecord, active: readonly Constraint[]): string[] {
  if (record.pending.length === 0) return ["Pending: nothing"];
  const numberOf = new Map(active.map((constraint, index) => [flat(constraint.text), index + 1] as const));
  const worked = new Set((record.workedOn ?? []).map(flat));
  const lines = [`Pending (${record.pending.length}, not yet shown done by a passing test run after an edit):`];
  for (const [label, items] of [
    ["Not started", record.pending.filter((item) => !worked.has(flat(item)))],
    ["Worked on (an edit, no passing test run since)", record.pending.filter((item) => worked.has(flat(item)))],
  ] as const) {
    if (items.length === 0) continue;
    lines.push(`  ${label}:`);
    const asks = [...new Set(items.flatMap((item) => numberOf.get(flat(item)) ?? []))].sort((a, b) => a - b);
    if (asks.length > 0) lines.push(`    ${asks.length === 1 ? "ask" : "asks"} ${listed(asks.map(String))} (above)`);
    for (const item of items) if (numberOf.get(flat(item)) === undefined) lines.push(`    ${oneLine(item)}`);
  }
  return lines;
}

/** "1", "1 and 3", "1, 2 and 3". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** "overridden by #4: "stdlib only"". */
function overriddenBy(ledger: Ledger, constraint: Constraint): string {
  const by = constraint.supersededBy === undefined ? undefined : requestNumber(ledger, constraint.supersededBy);
  const who = by === undefined ? "a later request" : `#${by}`;
  return constraint.supersededWith === undefined ? `overridden by ${who}` : `overridden by ${who}: "${oneLine(constraint.supersededWith)}"`;
}

/** "(#1, #3)"; "(a request not routed)" for a source the ledger does not number. */
function sources(ledger: Ledger, ids: readonly string[]): string {
  const found = numbers(ledger, ids);
  return found.length > 0 ? `(${found.map((number) => `#${number}`).join(", ")})` : "(a request not routed)";
}

/** A progress item's requests, when its sources name any (they are mostly tool calls). */
function requestTag(ledger: Ledger, ids: readonly string[]): string {
  const found = numbers(ledger, ids);
  return found.length > 0 ? `  (${found.map((number) => `#${number}`).join(", ")})` : "";
}

/** The requests' numbers, ascending, each once; ids the ledger never routed are left out. */
function numbers(ledger: Ledger, ids: readonly string[]): number[] {
  return [...new Set(ids.flatMap((id) => requestNumber(ledger, id) ?? []))].sort((a, b) => a - b);
}

/** "request 3", "requests 1, 3 and 4", "requests 1-4 and 6". */
function numberList(values: readonly number[]): string {
  const runs: string[] = [];
  let start = values[0];
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] as number;
    const next = values[index + 1];
    if (next === value + 1) continue;
    // A range from three on: "1-4"; two in a row stay two numbers.
    if (start === value) runs.push(`${value}`);
    else if (value === (start ?? value) + 1) runs.push(`${start}`, `${value}`);
    else runs.push(`${start}-${value}`);
    start = next;
  }
  return `${values.length === 1 ? "request" : "requests"} ${listed(runs)}`;
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
