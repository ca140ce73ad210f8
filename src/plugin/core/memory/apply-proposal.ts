import { clip } from "../clip.js";
import type { AuxUsage } from "../routing/decision.js";
import { toolCallsOf } from "./group-digest.js";
import { overrideMark } from "./override-mark.js";
import { projectPath } from "./project-path.js";
import { type Constraint, type ProgressItem, RECORD_VERSION, type TaskRecord } from "./record.js";
import { MAX_CONSTRAINT_CHARS, MAX_ITEM_CHARS, type RecordProposal } from "./record-proposal.js";
import { isDeadEnd, isProgressEvidence } from "./tool-evidence.js";
import type { MemoryUpdateInput } from "./updater.js";

/** An item that says its work failed: a dead end may be its only evidence. */
const SAYS_FAILED = /\b(?:failed|failing|fails|did not work|didn't work|errored)\b/i;

const MAX_LIST = { pending: 30, files: 40, uncertainties: 20 } as const;

/**
 * Turns an updater's proposal into the next record, enforcing the memory's rules in code:
 * - a constraint cites user messages of its task, or it is dropped;
 * - a progress item cites tool evidence (a completed edit, write, patch or non-read-only
 *   bash call of the batch, or a failed edit or test run: a dead end), or it becomes an
 *   unverified claim under uncertainties;
 * - ids that exist nowhere in the task are removed from sources;
 * - a constraint is never removed: it is marked overridden only by a newer user message of
 *   the task (and stays in the record, shown as overridden); one that is simply missing
 *   from the proposal is kept in force;
 * - earlier progress is never lost; the coverage mark moves to the batch's last group.
 * Pure and deterministic; `notes` says what was changed and why.
 */
export function applyProposal(options: {
  input: MemoryUpdateInput;
  proposal: RecordProposal;
  updater: "model" | "extractive";
  aux?: AuxUsage | undefined;
}): TaskRecord {
  const { input, proposal, updater, aux } = options;
  const { task, previous, batch, requestIDs } = input;
  const last = batch[batch.length - 1];
  if (!last) throw new Error("applyProposal: the batch is empty");
  const notes: string[] = [];
  const order = new Map(requestIDs.map((id, position) => [id, position]));

  // Constraints: previous ones keep their ids; a missing one is restored unless superseded.
  const constraints: Constraint[] = (previous?.constraints ?? []).map((constraint) => ({ ...constraint }));
  const byID = new Map(constraints.map((constraint) => [constraint.id, constraint]));
  const kept = new Set<string>();
  const superseded = new Set<string>();
  for (const { id, by, because } of proposal.superseded) {
    const constraint = byID.get(id);
    if (!constraint || constraint.supersededBy !== undefined) {
      notes.push(`ignored superseding of unknown constraint ${id}`);
      continue;
    }
    const mark = overrideMark({ by, because, sources: constraint.sources, order, batch, what: id, taskID: task.id });
    if (!mark.ok) {
      notes.push(mark.note);
      continue;
    }
    Object.assign(constraint, { supersededBy: mark.supersededBy, ...(mark.supersededWith ? { supersededWith: mark.supersededWith } : {}) });
    superseded.add(id);
  }
  const known = (text: string) => constraints.some((constraint) => constraint.supersededBy === undefined && same(constraint.text, text));
  for (const proposed of proposal.constraints) {
    const previousOne = proposed.id === undefined ? undefined : byID.get(proposed.id);
    if (previousOne) {
      kept.add(previousOne.id);
      continue;
    }
    const text = clipFlat(proposed.text, MAX_CONSTRAINT_CHARS);
    if (text === "") continue;
    if (proposed.id !== undefined) notes.push(`constraint id ${proposed.id} does not exist; read as a new constraint`);
    const sources = validSources(proposed.sources, (source) => order.has(source), notes, "constraint");
    if (sources.length === 0) {
      notes.push(`dropped constraint without a user message of ${task.id}: ${JSON.stringify(text)}`);
      continue;
    }
    if (known(text)) continue;
    constraints.push({ id: `c${constraints.length + 1}`, text, sources, ...sameBatchOverride({ proposed, sources, order, batch, taskID: task.id, notes }) });
  }
  for (const constraint of previous?.constraints ?? []) {
    if (constraint.supersededBy !== undefined || kept.has(constraint.id) || superseded.has(constraint.id)) continue;
    notes.push(`kept ${constraint.id}: dropped without a newer user message that overrides it`);
  }

  // Progress: append what the batch's tool calls show; the rest is only a claim.
  const calls = new Map(toolCallsOf(batch).map((call) => [call.callID, call]));
  const messages = new Set(batch.flatMap((group) => [...(group.requestID ? [group.requestID] : []), ...group.assistantIDs]));
  const progress: ProgressItem[] = [...(previous?.progress ?? [])];
  const earlierEvidence = new Set(progress.flatMap((item) => item.sources));
  const claims: string[] = [];
  for (const proposed of proposal.progress) {
    const text = clipFlat(proposed.text);
    if (text === "") continue;
    // Earlier progress repeated (models often do, though asked for new work only) is already kept.
    if (proposed.sources.length > 0 && proposed.sources.every((source) => earlierEvidence.has(source))) continue;
    const sources = validSources(proposed.sources, (source) => calls.has(source) || messages.has(source), notes, "progress");
    const evidence = sources.some((source) => {
      const call = calls.get(source);
      // A failed call shows only that something was tried and failed, never that it was done.
      return call !== undefined && (isProgressEvidence(call) || (isDeadEnd(call) && SAYS_FAILED.test(text)));
    });
    if (!evidence) {
      notes.push(`moved to uncertainties (no tool evidence): ${JSON.stringify(text)}`);
      claims.push(`Unverified claim: ${text}`);
      continue;
    }
    // The same work again (a re-run, a re-edit) moves to the end with its newer evidence.
    const earlier = progress.findIndex((item) => same(item.text, text));
    const merged = earlier < 0 ? sources : [...new Set([...(progress[earlier]?.sources ?? []), ...sources])];
    if (earlier >= 0) progress.splice(earlier, 1);
    progress.push({ text, sources: merged });
  }

  const groups = [...(previous?.coverage.groups ?? [])];
  for (const group of batch) if (!groups.includes(group.id)) groups.push(group.id);
  // The asks in the order the task's requests came (its founding request's first), whatever
  // order their requests were settled and recorded in; ids keep naming them.
  const firstAsked = (constraint: Constraint) => Math.min(...constraint.sources.map((source) => order.get(source) ?? Number.MAX_SAFE_INTEGER));
  constraints.sort((a, b) => firstAsked(a) - firstAsked(b));
  return {
    version: RECORD_VERSION,
    task: task.id,
    goal: clipFlat(proposal.goal) || previous?.goal || task.title,
    constraints,
    progress,
    pending: list(proposal.pending, MAX_LIST.pending),
    ...workedOnOf(proposal),
    files: list(updater === "model" ? modelFiles(proposal.files, input) : proposal.files, MAX_LIST.files),
    uncertainties: list([...proposal.uncertainties, ...claims], MAX_LIST.uncertainties),
    coverage: { through: last.id, groups },
    lastUpdate: { updater, groups: batch.length, ...(aux ? { aux } : {}), notes },
  };
}

/** A new constraint that a later message of the same batch overrides is recorded, marked; a mark by an older message is refused with a note. */
function sameBatchOverride(options: {
  proposed: RecordProposal["constraints"][number];
  sources: readonly string[];
  order: ReadonlyMap<string, number>;
  batch: MemoryUpdateInput["batch"];
  taskID: string;
  notes: string[];
}): Partial<Constraint> {
  const { proposed, sources, order, batch, taskID, notes } = options;
  if (proposed.supersededBy === undefined) return {};
  const mark = overrideMark({
    by: proposed.supersededBy,
    because: proposed.supersededWith,
    sources,
    order,
    batch,
    what: JSON.stringify(clipFlat(proposed.text)),
    taskID,
  });
  if (!mark.ok) notes.push(mark.note);
  return mark.ok ? { supersededBy: mark.supersededBy, ...(mark.supersededWith ? { supersededWith: mark.supersededWith } : {}) } : {};
}

function validSources(sources: readonly string[], exists: (id: string) => boolean, notes: string[], what: "constraint" | "progress"): string[] {
  const where = what === "constraint" ? "not a user message of this task" : "no such message or tool call in this batch";
  const valid: string[] = [];
  for (const source of sources) {
    if (exists(source)) {
      if (!valid.includes(source)) valid.push(source);
    } else notes.push(`rejected ${what} source ${JSON.stringify(source)}: ${where}`);
  }
  return valid;
}

/** Trimmed, unique, cut items; the newest `max` if there are more. */
function list(items: readonly string[], max: number): string[] {
  const result: string[] = [];
  for (const item of items) {
    const text = clipFlat(item);
    if (text !== "" && !result.some((other) => same(other, text))) result.push(text);
  }
  return result.slice(-max);
}

function clipFlat(text: string, max = MAX_ITEM_CHARS): string {
  return clip(text.replace(/\s+/g, " ").trim(), max);
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The pending items an edit worked on, as the record keeps them: only items still pending, and none at all when there are none. */
function workedOnOf(proposal: RecordProposal): { workedOn?: string[] } {
  const pending = new Set(list(proposal.pending, MAX_LIST.pending));
  const workedOn = list(proposal.workedOn, MAX_LIST.pending).filter((item) => pending.has(item));
  return workedOn.length > 0 ? { workedOn } : {};
}

/**
 * The files a model proposes, kept as the extractive updater keeps its own: relative to the
 * project root, and only paths (a name with a folder, one the record had, or one a tool call of
 * the batch touched), not product names a log mentioned ("Node.js").
 */
function modelFiles(files: readonly string[], input: MemoryUpdateInput): string[] {
  const touched = toolCallsOf(input.batch).flatMap((call) => Object.values(call.input).filter((value): value is string => typeof value === "string"));
  const known = new Set(input.previous?.files ?? []);
  return files
    .filter((file) => file.includes("/") || known.has(file) || touched.some((value) => value === file || value.endsWith(`/${file}`)))
    .map((file) => projectPath(file, input.root));
}
