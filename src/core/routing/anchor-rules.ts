import type { Anchors, TaskAnchor } from "./anchors.js";
import { type RequestFacts, TASK_FEATURES, type TaskCandidate } from "./routing-features.js";
import type { Signals } from "./signals.js";

/** Confidence of a decision a person's anchor makes: one task's file, name or own words. */
export const ANCHORED_CONFIDENCE = 0.92;
/** Confidence of a task the request says outright it starts ("New task: ..."). */
export const CUED_NEW_CONFIDENCE = 0.95;

/**
 * Words no task has used that make an unanchored request read as a new task ("the shipping
 * middleware ignores the ordering"), where a reply uses one or two ("again pls", "tests?").
 */
const UNCUED_NEW_WORDS = 3;
const CURRENT = TASK_FEATURES.indexOf("current");

/** What the anchors make of the fitted model's choice: a new choice, a new confidence, and why. */
export interface AnchorVerdict {
  chosen: TaskCandidate | "new";
  /** The decision's confidence at least this (before the threshold cap); undefined keeps the model's. */
  floor?: number;
  /** True when the decision must stay below the threshold: the full history is kept. */
  unsure: boolean;
  why: string;
}

/**
 * Anchors decide where they exist, and "new task" needs positive evidence:
 * 1. the request says it starts a task and names no existing one by id or checkout: a new task, surely;
 * 2. it names exactly one task by a file only that task touched, or by its id, label or
 *    checkout: that task, surely;
 * 3. it names exactly one task by that task's own words or phrases: that task, surely, unless
 *    it reads like a fresh issue report (then a new task sharing the task's vocabulary is as
 *    likely, and the full history stays) or the model's choice has a file or name of its own;
 * 4. it names two or more: ambiguous, the full history stays;
 * 5. it names none, and the model opens a task that nothing in the request says is new (no
 *    cue, checkout nor unknown task name; unseen words and paths alone do not): unsure;
 * 6. it names none, shares nothing distinctive, brings several words nobody used, and names
 *    a new thing ("the shipping middleware") or does not read as a reply, while the model
 *    folds it into a task it does not name: it reads as an uncued new task, so it opens one,
 *    unsure. Folding it in would carry its requirements in another task for good,
 *    while a wrongly opened task is undone once its edits land in another task's files
 *    (`edit-evidence.ts`).
 *    Likewise where it brings a file no task has touched as well as such words, whatever the
 *    words it shares with a task.
 * 7. it names none, brings such words, and the model chose a task with nothing of its own
 *    (no file, checkout, name or back-reference): unsure, as a person would be;
 * 8. it names none and says nothing of its own ("tests pls"): the current task.
 * Otherwise the model's decision stands.
 */
export function anchorVerdict(options: {
  chosen: TaskCandidate | "new";
  candidates: readonly TaskCandidate[];
  anchors: Anchors;
  facts: RequestFacts;
  signals: Signals;
}): AnchorVerdict {
  const { chosen, candidates, anchors, facts, signals } = options;
  const { explicitNewTask, reviewCue } = signals;
  const keep: AnchorVerdict = { chosen, unsure: false, why: "" };
  if (explicitNewTask && !anchors.strong.some((anchor) => anchor.named)) return { chosen: "new", floor: CUED_NEW_CONFIDENCE, unsure: false, why: "says it starts a new task" };
  const hard = anchors.strong.filter(isHard);
  // An id or label alone is outvoted by another task's own file or words: one of the two is off.
  const firm = hard.length > 0 && !(hard.length === 1 && hard[0]?.byId && anchors.strong.length > 1) ? hard : anchors.strong;
  if (firm.length > 1) {
    const chosenNamed = chosen !== "new" && firm.some((anchor) => anchor.task === chosen.task && anchor.named);
    return chosenNamed ? keep : { chosen, unsure: true, why: `names ${firm.map((anchor) => anchor.task.id).join(" and ")}: could be either` };
  }
  const anchor = firm[0];
  // "task 2" counts the user's tasks: where it points elsewhere than the anchor, one of them is off.
  if (anchor && !anchor.named && anchors.counted.length > 0 && !anchors.counted.includes(anchor.task)) {
    return { chosen, unsure: true, why: `${describeAnchor(anchor)} point to ${anchor.task.id}, but its "task N" counts another` };
  }
  if (anchor && facts.unseenCheckout === undefined) {
    const target = candidates.find((candidate) => candidate.task === anchor.task);
    if (!target) return keep;
    const named = { chosen: target, floor: ANCHORED_CONFIDENCE, unsure: false, why: `named ${describeAnchor(anchor)}` };
    // A fresh report that reuses a task's file or words is a neighbour of that task as often as a part of it.
    const readsAsFresh = facts.opensLikeIssue && !facts.followUp && !reviewCue;
    if (readsAsFresh && !anchor.named) return { chosen, unsure: true, why: `reads like a new report, yet uses ${anchor.task.id}'s ${describeAnchor(anchor).replace(/^its /, "")}` };
    if (isHard(anchor) || chosen === target || chosen === "new") return named;
    const chosenHasOwn = hasOwnEvidence(chosen);
    return chosenHasOwn ? { chosen, unsure: true, why: `${describeAnchor(anchor)} point to ${anchor.task.id}, ${describeCandidate(chosen)} to ${chosen.task.id}: could be either` } : named;
  }
  if (anchor) return keep;
  if (chosen === "new") {
    // Sure of a new task only on the user's word (a cue, a checkout or a task name nobody has): a
    // comment in new words continues its thread as often as it opens one.
    if (facts.newTaskCue || facts.unseenCheckout !== undefined || facts.unknownReference !== undefined) return keep;
    const somethingNew = facts.unseenPaths > 0 || (anchors.bestTermScore < 1 && facts.unseenWords >= 3);
    return { chosen, unsure: true, why: somethingNew ? "new words but no cue: may be a new task" : "nothing in it is new, so not surely a new task" };
  }
  const chosenHasOwn = hasOwnEvidence(chosen);
  if (chosenHasOwn) return keep;
  const readsAsRule = signals.sharedCue || signals.scopeCue || signals.ruleCue;
  // A file no task has touched, in words no task used, starts a task of its own: unsure, never the nearest one's.
  if (facts.unseenPaths > 0 && facts.unseenWords >= UNCUED_NEW_WORDS && !reviewCue && !readsAsRule) {
    return { chosen: "new", unsure: true, why: "brings a file and words no task has: may be a new task" };
  }
  if (facts.unseenWords >= UNCUED_NEW_WORDS) {
    // A reply in new words ("clean up the naming") follows up; a request that names a new thing ("the shipping middleware ignores ...") opens.
    const namesNewThing = signals.namedThings.some((thing) => thing.split(" ").every((word) => !anchors.knownWords.has(word)));
    const opensNew = anchors.bestTermScore < 1 && !reviewCue && !readsAsRule && (!facts.followUp || namesNewThing);
    return opensNew
      ? { chosen: "new", unsure: true, why: "names no task and brings words no task used: may be a new task" }
      : { chosen, unsure: true, why: `names no task for sure: may not be ${chosen.task.id}` };
  }
  // A reply with nothing of its own ("tests pls") is about the task just worked on.
  const current = candidates.find((candidate) => candidate.values[CURRENT] === 1);
  if (facts.bare && current && chosen !== current) return { chosen: current, unsure: false, why: "a short reply: the task just worked on" };
  return keep;
}

/** The model's choice rests on something of its own: its checkout, a reference to it, or one of its files. */
function hasOwnEvidence(candidate: TaskCandidate): boolean {
  return candidate.workspace || candidate.explicit || candidate.backReference || candidate.evidence.files > 0;
}

function isHard(anchor: TaskAnchor): boolean {
  return anchor.named || anchor.files.length > 0;
}

/** An anchor as a person says it: "its file src/alpha.py", "its words \"rate limiter\"". */
function describeAnchor(anchor: TaskAnchor): string {
  if (anchor.named) return "its id, label or checkout";
  if (anchor.files.length > 0) return `its file${anchor.files.length === 1 ? "" : "s"} ${anchor.files.join(", ")}`;
  const phrase = anchor.phrases[0];
  return `its words ${phrase ? `"${phrase}"` : anchor.terms.slice(0, 3).map((term) => `"${term}"`).join(", ")}`;
}

/** What the model's choice rests on, in words. */
function describeCandidate(candidate: TaskCandidate): string {
  if (candidate.workspace) return "its checkout points";
  if (candidate.explicit) return "its name points";
  if (candidate.backReference) return "a back-reference points";
  return "a shared file points";
}
