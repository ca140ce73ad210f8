import { clip } from "../clip.js";
import { contentWords, extractSignals } from "../routing/signals.js";
import { applyProposal } from "./apply-proposal.js";
import { askedSentences } from "./asked-sentences.js";
import { findOverrides } from "./find-overrides.js";
import { goalOf } from "./goal.js";
import { type GroupDigest, type ToolCallDigest, toolCallsOf } from "./group-digest.js";
import { projectPath } from "./project-path.js";
import { activeConstraints, type Constraint } from "./record.js";
import type { RecordProposal } from "./record-proposal.js";
import { resolvedText } from "./resolve-references.js";
import { isDeadEnd, isEditingCall, isProgressEvidence, isTestCommand, testOutcome } from "./tool-evidence.js";
import type { MemoryUpdateInput, MemoryUpdater } from "./updater.js";

/** The default updater when no aux model is configured: rules over the digests, no model. */
export const extractiveUpdater: MemoryUpdater = {
  name: "extractive",
  limits: { maxGroups: 50, maxTokens: 200_000 },
  everyTurn: true,
  // async: a throw (an empty batch) becomes a rejection, as with the model updater.
  async update(input) {
    return { ok: true, record: applyProposal({ input, proposal: proposeExtractively(input), updater: "extractive" }) };
  },
};

const SHOWN_CHARS = 120;

/** Proposes the next record from the batch alone: pure and deterministic. */
export function proposeExtractively(input: MemoryUpdateInput): RecordProposal {
  const { previous, batch } = input;
  const { files, show } = collectFiles(previous?.files ?? [], batch, input.root);
  const { constraints, superseded, fresh, supersededTexts } = extractConstraints(input);
  // The goal is the founding request's: stated from its first ask once that is recorded (a
  // founding request settled after its follow-ups replaces a goal stated from theirs).
  const founding = input.requestIDs[0];
  const foundingAsks = constraints.filter((constraint) => founding !== undefined && constraint.sources.includes(founding));
  const foundingNow = batch.some((group) => group.requestID !== undefined && group.requestID === founding);
  return {
    goal:
      (foundingNow && foundingAsks.length > 0 ? undefined : previous?.goal) ||
      goalOf(
        (foundingAsks.length > 0 ? foundingAsks : constraints).map((constraint) => constraint.text),
        batch.map((group) => group.requestText),
      ),
    constraints,
    superseded,
    progress: progressOf(batch, show),
    ...pendingOf({ pending: previous?.pending ?? [], workedOn: previous?.workedOn ?? [] }, fresh, supersededTexts, batch),
    files,
    uncertainties: uncertaintiesOf(previous?.uncertainties ?? [], batch, show),
  };
}

/**
 * A new constraint; `group` is its request's position in the batch, `at` where its clause
 * starts in the request. One that a later request overrides keeps that request's id and words.
 */
type Candidate = { text: string; sources: string[]; group: number; at: number; supersededBy?: string; supersededWith?: string };

type Superseded = { id: string; by: string; because: string };

/**
 * New constraints from the batch's requests, and the previous ones their requests override
 * (find-overrides.ts). An overridden constraint is never dropped: a previous one is listed in
 * `superseded`, a new one is proposed already marked, so the record keeps both the
 * constraint and the request that overrode it.
 */
function extractConstraints(input: MemoryUpdateInput) {
  const active = input.previous ? activeConstraints(input.previous) : [];
  const order = new Map(input.requestIDs.map((id, position) => [id, position]));
  const superseded: Superseded[] = [];
  const fresh: Candidate[] = [];
  input.batch.forEach((group, index) => {
    const by = group.requestID;
    if (group.kind !== "request" || by === undefined) return;
    fresh.push(...newClauses({ text: group.requestText, by, index, active, fresh, requestIDs: input.requestIDs }));
    markOverrides({ text: group.requestText, by, index, order, active, fresh, superseded });
  });
  const gone = new Set(superseded.map((entry) => entry.id));
  return {
    // Previous constraints are emitted with their ids so that they are kept without a note.
    constraints: [
      ...active.filter((known) => !gone.has(known.id)).map(({ id, text, sources }) => ({ id, text, sources })),
      ...fresh.map(({ text, sources, supersededBy, supersededWith }) => ({ text, sources, ...(supersededBy ? { supersededBy, supersededWith } : {}) })),
    ],
    superseded,
    fresh: fresh.filter((candidate) => candidate.supersededBy === undefined),
    supersededTexts: [...active.filter((known) => gone.has(known.id)), ...fresh.filter((candidate) => candidate.supersededBy !== undefined)].map(
      (item) => item.text,
    ),
  };
}

/**
 * The request's asked sentences not known yet; a repeat of a new one adds its message as a
 * source. A sentence that points back ("handle it", "add a test for that") is resolved only
 * where its referent is clear: the asked sentence before it in the request, or, for the
 * request's first, the task's latest ask when that came from the task's request just before
 * this one. After a question in the same request ("what happens when capacity is 0? handle it")
 * it answers the question: kept as typed, with the question. Otherwise it stays as typed.
 */
function newClauses(options: {
  text: string;
  by: string;
  index: number;
  active: readonly Constraint[];
  fresh: readonly Candidate[];
  requestIDs: readonly string[];
}): Candidate[] {
  const { text, by, index, active, fresh, requestIDs } = options;
  const request = flat(text);
  const added: Candidate[] = [];
  const before = requestIDs[requestIDs.indexOf(by) - 1];
  const latest = fresh.at(-1) ?? active.at(-1);
  let referent = latest && before !== undefined && latest.sources.includes(before) ? latest.text : undefined;
  let seen = 0;
  for (const sentence of askedSentences(text)) {
    const at = request.indexOf(flat(sentence.text).slice(0, 40));
    const question = sentence.pointsBack ? questionBefore(request, at, seen) : undefined;
    const clause = question !== undefined ? `${question} ${sentence.text}` : resolvedText(sentence, referent);
    referent = clause;
    seen = at >= 0 ? at + flat(sentence.text).length : seen;
    if (active.some((known) => sameText(known.text, clause))) continue;
    const same = fresh.find((candidate) => candidate.supersededBy === undefined && sameText(candidate.text, clause));
    if (same) {
      if (!same.sources.includes(by)) same.sources.push(by);
    } else added.push({ text: clause, sources: [by], group: index, at: Math.max(0, at) });
  }
  return added;
}

/** The question a sentence at `at` follows in the request, after the text already taken (`from`): "what happens when ...?". */
function questionBefore(request: string, at: number, from: number): string | undefined {
  if (at <= from) return undefined;
  const between = request.slice(from, at).trim();
  if (!between.endsWith("?")) return undefined;
  // The last question only: from the end of the sentence before it.
  const start = Math.max(between.lastIndexOf(". ", between.length - 2), between.lastIndexOf("! ", between.length - 2));
  return between.slice(start < 0 ? 0 : start + 2).trim();
}

/** Marks what the request overrides: earlier new constraints in place, previous ones in `superseded`. */
function markOverrides(options: {
  text: string;
  by: string;
  index: number;
  order: ReadonlyMap<string, number>;
  active: readonly Constraint[];
  fresh: Candidate[];
  superseded: Superseded[];
}): void {
  const { text, by, index, order, active, fresh, superseded } = options;
  const newest = (sources: readonly string[]) => Math.max(-1, ...sources.map((source) => order.get(source) ?? -1));
  const earlier = [
    ...active
      .filter((known) => !superseded.some((entry) => entry.id === known.id))
      .map((known) => ({ key: known.id, text: known.text, order: newest(known.sources), at: -1 })),
    ...fresh.flatMap((candidate, position) =>
      candidate.supersededBy === undefined
        ? [{ key: `new:${position}`, text: candidate.text, order: newest(candidate.sources), at: candidate.group === index ? candidate.at : -1 }]
        : [],
    ),
  ];
  for (const { key, because } of findOverrides({ text, order: order.get(by) ?? -1, earlier })) {
    const candidate = key.startsWith("new:") ? fresh[Number(key.slice(4))] : undefined;
    if (candidate) Object.assign(candidate, { supersededBy: by, supersededWith: because });
    else superseded.push({ id: key, by, because });
  }
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * The files the task worked with, first seen first, one spelling per file: paths a tool call
 * touched (its path inputs, a patch's headers, the paths of a bash command), and paths a request
 * names with a folder (`src/a.py`). A bare name a request mentions (`config.json`, or `Node.js`
 * in a pasted version line) counts only once a tool touched a file of that name. Paths are shown
 * relative to the project root (`root`), else to a workspace root when one is known: a bash
 * `workdir`, a directory a request names, or the prefix an absolute path adds to a relative one
 * (`/ws/` + `src/a.py`); a relative path that starts with the root's last folders
 * (`proj/src/a.py` under `/tmp/proj`) loses them.
 */
function collectFiles(previous: readonly string[], batch: readonly GroupDigest[], root: string | undefined) {
  const touched: string[] = [];
  const named: string[] = [];
  const roots = new Set<string>();
  if (root?.startsWith("/") && root !== "/") roots.add(`${root.replace(/\/+$/, "")}/`);
  for (const group of batch) {
    const request = extractSignals(group.requestText);
    // A request's "paths" include things like "0/false/no/off": only names with an extension are files.
    named.push(...request.paths.filter((path) => /\.[A-Za-z]\w{0,7}$/.test(path)));
    for (const workspace of request.workspaces) roots.add(`${workspace}/`);
    for (const call of toolCallsOf([group])) {
      touched.push(...pathsOf(call));
      const command = commandOf(call);
      if (command !== "") touched.push(...extractSignals(command).paths.filter((path) => /\.[A-Za-z]\w{0,7}$/.test(path)));
      const workdir = call.input.workdir;
      if (typeof workdir === "string" && workdir.startsWith("/")) roots.add(`${workdir.replace(/\/+$/, "")}/`);
    }
  }
  const touchedNames = new Set(touched.map((path) => path.split("/").at(-1) ?? path));
  const candidates = [...named.filter((path) => path.includes("/") || touchedNames.has(path)), ...touched];
  const relatives = [...previous, ...candidates].filter((path) => !path.startsWith("/") && path.includes("/"));
  for (const path of candidates) {
    for (const relative of relatives) if (path.startsWith("/") && path.endsWith(`/${relative}`)) roots.add(path.slice(0, -relative.length));
  }
  const sortedRoots = [...roots].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const show = (path: string): string => {
    if (!path.startsWith("/")) return projectPath(path, root);
    const found = sortedRoots.find((candidate) => path.startsWith(candidate) && path.length > candidate.length);
    if (found) return path.slice(found.length);
    const segments = path.split("/").filter((segment) => segment !== "");
    return segments.length > 3 ? segments.slice(-3).join("/") : path;
  };
  const files = [...previous];
  for (const path of candidates) {
    const plain = path.replace(/^\.\//, "");
    // An absolute path outside every root is shown whole: a file elsewhere, one spelling.
    const form = plain.startsWith("/") && !sortedRoots.some((known) => plain.startsWith(known)) ? plain : show(plain);
    if (form !== "" && !files.some((known) => samePath(known, form))) files.push(form);
  }
  return { files, show };
}

/** Paths a call works on: its path inputs and the file headers of a patch. */
function pathsOf(call: ToolCallDigest): string[] {
  const paths: string[] = [];
  for (const key of ["filePath", "file_path", "path"]) {
    const value = call.input[key];
    // `path` is also grep's and glob's directory: only a name with an extension counts there.
    if (typeof value === "string" && (key !== "path" || /\.\w{1,8}$/.test(value))) paths.push(value.trim());
  }
  if (call.tool.includes("patch")) {
    for (const value of Object.values(call.input)) {
      if (typeof value !== "string") continue;
      for (const match of value.matchAll(/^(?:\*\*\* (?:Add|Update|Delete) File: |\+\+\+ b\/)(.+)$/gm)) paths.push((match[1] ?? "").trim());
    }
  }
  return [...new Set(paths.filter((path) => path !== ""))];
}

/**
 * New progress: edits and test runs, the dead ends too (a failed edit, a failing run), since
 * what was tried and did not work is what a summary loses first. Never assistant text or
 * tool output beyond a failing test's name.
 */
function progressOf(batch: readonly GroupDigest[], show: (path: string) => string): RecordProposal["progress"] {
  const progress: RecordProposal["progress"] = [];
  const add = (text: string, callID: string) => {
    const same = progress.find((item) => item.text === text);
    if (same) same.sources.push(callID);
    else progress.push({ text, sources: [callID] });
  };
  for (const call of toolCallsOf(batch)) {
    if (!isProgressEvidence(call) && !isDeadEnd(call)) continue;
    const targets = pathsOf(call).map(show).join(", ") || "files";
    if (isEditingCall(call)) {
      const verb = call.tool === "write" ? "Wrote" : call.tool.includes("patch") ? "Patched" : "Edited";
      add(call.status === "completed" ? `${verb} ${targets}` : `Tried to edit ${targets}: failed (${short(firstLine(call.error))})`, call.callID);
    } else if (call.tool === "bash" && isTestCommand(commandOf(call))) {
      const outcome = testOutcome(call);
      const failed = outcome === "failed" ? (call.output ?? "").split("\n").find((line) => /^(?:FAILED|ERROR|FAIL)\b/.test(line.trim())) : undefined;
      add(`Ran \`${short(commandOf(call))}\`: ${outcome === "unknown" ? "outcome unknown" : outcome}${failed ? ` (${short(failed)})` : ""}`, call.callID);
    }
  }
  return progress;
}

function firstLine(text: string | undefined): string {
  return (text ?? "").split("\n").find((line) => line.trim() !== "") ?? "unknown error";
}

/**
 * Open problems: failed calls, assistant errors, aborts and failing test runs. A later
 * passing run of the same command clears its failure; a later completed edit of a file
 * clears the failed edits of that file.
 */
function uncertaintiesOf(previous: readonly string[], batch: readonly GroupDigest[], show: (path: string) => string): string[] {
  let items = [...previous];
  for (const group of batch) {
    for (const call of toolCallsOf([group])) {
      const command = commandOf(call);
      const targets = pathsOf(call).map(show);
      if (call.tool === "bash" && isTestCommand(command)) {
        const outcome = testOutcome(call);
        const key = `Tests failing: \`${short(command)}\``;
        if (outcome !== "unknown") items = items.filter((item) => !item.startsWith(key));
        if (outcome !== "failed") continue;
        const failed = (call.output ?? "").split("\n").find((line) => /^(?:FAILED|ERROR|FAIL)\b/.test(line.trim()));
        items.push(failed ? `${key}: ${short(failed)}` : key);
      } else if (call.status === "error") {
        const target = targets.length > 0 ? ` on ${targets.join(", ")}` : command !== "" ? ` (\`${short(command)}\`)` : "";
        items.push(`\`${call.tool}\` failed${target}: ${short((call.error ?? "").split("\n").find((line) => line.trim() !== "") ?? "unknown error")}`);
      } else if (call.status === "completed" && isEditingCall(call)) {
        items = items.filter((item) => {
          const failed = /^`[\w-]+` failed on (.+?): /.exec(item);
          return !failed || !(failed[1] ?? "").split(", ").every((path) => targets.some((target) => samePath(target, path)));
        });
      }
    }
    for (const error of group.errors) items.push(`Assistant error: ${error}`);
    if (group.aborted) items.push("A step was aborted");
  }
  return items;
}

/**
 * Which requirements no tool result has shown done yet, and which of those an edit worked on.
 * Judged from the requirement's own group on: an edit works on an item when it names one of the
 * item's paths or symbols, or holds most of its content words, or (an item naming nothing) when
 * it is any completed edit. Worked on is done only once a passing test run follows the edit (in
 * its group or a later one); an item worked on before this batch is done at a passing run in it.
 * An item naming no file counts as worked on by an edit that a passing run then verified.
 */
function pendingOf(
  previous: { pending: readonly string[]; workedOn: readonly string[] },
  fresh: readonly Candidate[],
  dropped: readonly string[],
  batch: readonly GroupDigest[],
): { pending: string[]; workedOn: string[] } {
  const work = batch.map(groupWork);
  const before = new Set(previous.workedOn.map((text) => flat(text).toLowerCase()));
  const items = [
    ...previous.pending
      .filter((text) => !dropped.some((gone) => sameText(gone, text)))
      .map((text) => ({ text, group: 0, worked: before.has(flat(text).toLowerCase()) })),
    ...fresh.map(({ text, group }) => ({ text, group, worked: false })),
  ];
  const passedFrom = (group: number) => work.slice(group).some(({ passed }) => passed);
  const workedOnAt = ({ text, group }: { text: string; group: number }): number => {
    const signals = extractSignals(text);
    const names = [...signals.paths, ...signals.symbols].map((name) => name.toLowerCase());
    const words = [...new Set(contentWords(text))];
    const found = work.slice(group).findIndex(({ edits, editWords, verified }) => {
      if (edits.length === 0) return false;
      if (names.length === 0 || names.some((name) => edits.some((input) => input.includes(name)))) return true;
      if (signals.paths.length === 0 && verified) return true;
      return words.length >= 2 && words.filter((word) => editWords.has(word)).length >= PENDING_WORD_SHARE * words.length;
    });
    return found < 0 ? -1 : group + found;
  };
  const pending: string[] = [];
  const workedOn: string[] = [];
  for (const item of items) {
    const at = workedOnAt(item);
    const done = at >= 0 ? work[at]?.verified === true || passedFrom(at + 1) : item.worked && passedFrom(0);
    if (done) continue;
    pending.push(item.text);
    if (at >= 0 || item.worked) workedOn.push(item.text);
  }
  return { pending, workedOn };
}

/** Share of a requirement's content words that an edit's text must hold to answer it. */
const PENDING_WORD_SHARE = 0.6;

/** A group's completed edits (their inputs, lower-cased), their words, whether a passing test run followed one, and whether any run passed. */
function groupWork(group: GroupDigest): { edits: string[]; editWords: Set<string>; verified: boolean; passed: boolean } {
  const edits: string[] = [];
  let verified = false;
  let passed = false;
  for (const call of toolCallsOf([group])) {
    if (call.status === "completed" && isEditingCall(call)) edits.push(JSON.stringify(call.input).toLowerCase());
    else if (isTestCommand(commandOf(call)) && testOutcome(call) === "passed") {
      passed = true;
      if (edits.length > 0) verified = true;
    }
  }
  // JSON escapes (\n, \") would glue words together; split them off first.
  return { edits, editWords: new Set(edits.flatMap((input) => contentWords(input.replace(/\\[nt"\\]/g, " ")))), verified, passed };
}

function commandOf(call: ToolCallDigest): string {
  const command = call.input.command;
  return call.tool === "bash" && typeof command === "string" ? command : "";
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  // What was run, not where or with which environment: `cd ws && X=1 pytest -q` → `pytest -q`.
  const run = flat.replace(/^(?:cd \S+ &&\s*)?(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*/, "");
  if (run !== "" && run !== flat) return short(run);
  return clip(flat, SHOWN_CHARS);
}

function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

function sameText(a: string, b: string): boolean {
  return a.replace(/\s+/g, " ").trim().toLowerCase() === b.replace(/\s+/g, " ").trim().toLowerCase();
}
