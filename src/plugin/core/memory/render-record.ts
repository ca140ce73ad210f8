import { estimateTokens } from "./estimate-tokens.js";
import { activeConstraints, type Constraint, overriddenConstraints, type TaskRecord } from "./record.js";
import { READING_MARK } from "./resolve-references.js";

/** The tags around a rendered record; tests and the compaction prompt look for them. */
export const RECORD_OPEN = "<rcm-task-memory";
export const RECORD_CLOSE = "</rcm-task-memory>";

/** How many of each trimmable list are shown (the newest ones). */
interface Shown {
  progress: number;
  files: number;
  uncertainties: number;
  pending: number;
  overridden: number;
}

/** What goes first when a record is over its bound: everything before a requirement in force. */
const TRIM_ORDER = ["progress", "files", "uncertainties", "pending", "overridden"] as const;

/**
 * The text the model sees for a record: delimited, deterministic, and bounded by
 * `maxTokens` (estimated). Trimming drops the oldest progress first, then the oldest files,
 * uncertainties and pending items, then the oldest overridden constraints. A constraint in
 * force is never dropped or cut: a requirement lost to the bound would be applied by no one.
 * So when the constraints alone exceed the bound, every one of them is shown and the record
 * is over its bound (by design; the goal, the constraints and the tags are all it holds then).
 */
export function renderRecord(record: TaskRecord, options: { title: string; maxTokens: number; earlier?: boolean }): string {
  const { maxTokens } = options;
  const about = options.earlier ? EARLIER_ABOUT : ABOUT;
  const shown: Shown = {
    progress: record.progress.length,
    files: record.files.length,
    uncertainties: record.uncertainties.length,
    pending: record.pending.length,
    overridden: overriddenConstraints(record).length,
  };
  let text = compose(record, options.title, shown, about);
  for (const field of TRIM_ORDER) {
    while (shown[field] > 0 && estimateTokens(text) > maxTokens) {
      shown[field] -= 1;
      text = compose(record, options.title, shown, about);
    }
  }
  return text;
}

/** What a record is, for the model: this session's, or (a resumed task's) an earlier session's. */
const ABOUT =
  "This is opencode-rcm's record of the task so far in this session. Where earlier assistant and tool exchanges of the task are missing below, it stands for them; the user's requests are kept verbatim. The user's current request overrides anything recorded here.";
const EARLIER_ABOUT =
  "This is opencode-rcm's record of the task as an earlier session left it; that session's exchanges are not in this conversation, and it stands for them. The user's current request overrides anything recorded here.";

function compose(record: TaskRecord, title: string, shown: Shown, about: string): string {
  const active = activeConstraints(record);
  const lines = [`${RECORD_OPEN} task="${record.task}">`, `Task ${record.task}: ${oneLine(title)}`, about, `Goal: ${oneLine(record.goal)}`];
  const readings = active.some((constraint) => constraint.text.includes(`[${READING_MARK}`));
  section(
    lines,
    `Asked by the user (their words${readings ? `; a [${READING_MARK} ...] note is the plug-in's guess at what a word points to, not the user's words` : ""})`,
    active.map((constraint, index) => `${index + 1}. ${oneLine(constraint.text)}`),
    undefined,
    "",
  );
  const overridden = overriddenConstraints(record);
  section(
    lines,
    "Overridden by a later request (do not apply these)",
    newest(overridden, shown.overridden).map(overriddenLine),
    omitted(overridden.length, shown.overridden),
  );
  section(
    lines,
    "Progress (shown by tool results, dead ends included)",
    newest(
      record.progress.map((item) => item.text),
      shown.progress,
    ),
    omitted(record.progress.length, shown.progress),
  );
  const pending = pendingLines(record.pending, active, shown.pending);
  const worked = new Set((record.workedOn ?? []).map((item) => oneLine(item).toLowerCase()));
  const workedNumbers = pending.numbers.filter((number) => worked.has(oneLine(active[number - 1]?.text ?? "").toLowerCase()));
  if (pending.numbers.length > 0)
    lines.push(
      `Not yet shown done: ${pending.numbers.join(", ")}${workedNumbers.length > 0 ? ` (worked on, no passing test run since: ${workedNumbers.join(", ")})` : ""}`,
    );
  section(
    lines,
    "Also pending",
    pending.others.map((item) => (worked.has(oneLine(item).toLowerCase()) ? `${item} (worked on, no passing test run since)` : item)),
    omitted(record.pending.length, shown.pending),
  );
  const files = newest(record.files, shown.files);
  if (files.length > 0) lines.push(`Files: ${files.join(", ")}${omitted(record.files.length, shown.files) ?? ""}`);
  section(lines, "Uncertainties", newest(record.uncertainties, shown.uncertainties), omitted(record.uncertainties.length, shown.uncertainties));
  lines.push(RECORD_CLOSE);
  return lines.join("\n");
}

/** Pending items that are requirements above are named by their number, not repeated. */
function pendingLines(pending: readonly string[], active: readonly Constraint[], count: number): { numbers: number[]; others: string[] } {
  const numbers: number[] = [];
  const others: string[] = [];
  for (const item of newest(pending, count)) {
    const position = active.findIndex((constraint) => oneLine(constraint.text).toLowerCase() === oneLine(item).toLowerCase());
    if (position >= 0) numbers.push(position + 1);
    else others.push(item);
  }
  return { numbers: numbers.sort((a, b) => a - b), others };
}

/** An overridden constraint, with the words that override it when the record has them. */
function overriddenLine(constraint: Constraint): string {
  const by = constraint.supersededWith === undefined ? "a later request" : `"${oneLine(constraint.supersededWith)}"`;
  return `${constraint.text} (overridden by ${by})`;
}

function section(lines: string[], heading: string, items: readonly string[], note?: string, bullet = "- "): void {
  if (items.length === 0 && note === undefined) return;
  lines.push(`${heading}:`);
  if (note !== undefined) lines.push(`- ${note.trim()}`);
  for (const item of items) lines.push(`${bullet}${oneLine(item)}`);
}

function newest<T>(items: readonly T[], count: number): T[] {
  return count <= 0 ? [] : items.slice(-count);
}

function omitted(total: number, shown: number): string | undefined {
  return shown < total ? ` (${total - shown} older left out)` : undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
