import type { Anchors, TaskAnchor } from "./anchors.js";
import { type RequestFacts, readsAsReply, TASK_FEATURES, type TaskCandidate } from "./routing-features.js";
import type { Signals } from "./signals.js";

/** Confidence of a decision a person's anchor makes: one task's file, name or own words. */
const ANCHORED_CONFIDENCE = 0.92;
/**
 * Confidence of a reply kept on the task the session is surely on (see `repliesInPlace`): such
 * replies were right 95.7% of the time on the choice sets (dev, train, generated seeds 1 and 2, threads-dev; 207).
 */
const REPLY_CONFIDENCE = 0.9;
/** Confidence of a task the request says outright it starts ("New task: ..."). */
const CUED_NEW_CONFIDENCE = 0.95;

/**
 * Words no task has used that make an unanchored request read as a new task ("the shipping
 * middleware ignores the ordering"), where a reply uses one or two ("again pls", "tests?").
 */
const UNCUED_NEW_WORDS = 3;
const CURRENT = TASK_FEATURES.indexOf("current");
/** Going back to a task: "back to ...", "returning to ...", "picking up ...", said up front. */
export const BACK_CUE = /\b(?:back to|back on|return(?:ing)? to|switch(?:ing)? back|go(?:ing)? back|resum(?:e|ing)|pick(?:ing)? up)\b/i;
const OPENING_WORDS = 8;

export function openingWords(text: string): string {
  return text.trimStart().split(/\s+/).slice(0, OPENING_WORDS).join(" ");
}

/** Coming back to something said before: "again", "one more on", "re: ...". */
export const RETURN_CUE = /\b(?:again|one more (?:on|for|about))\b|^\W*(?:re|wrt)\b\s*[:\-—]?/i;
const CHANGE_VERBS =
  "make|add|change|rename|remove|delete|drop|use|handle|support|accept|return|strip|trim|split|move|extract|cover|update|replace|refactor|reject|raise|throw|log|skip|send|cap|limit|allow|keep|read|pull|memoize|flatten|surface|give|clean|inline|document";
/**
 * Asks for a change, where a report states what is wrong: a verb at the head of a clause
 * ("In src/a.py, make parse accept ...", "also add a test"), or "X must also / should also ...".
 */
const CHANGE_ASK = new RegExp(
  String.raw`(?:^|[:;.,\n\-\u2014]\s*|\b(?:please|pls|can you|could you|and|then|also|now)\s+)(?:${CHANGE_VERBS})\b|\b(?:must|should|needs? to) (?:also|too|now)\b`,
  "i",
);
/** Asks to make something new at its head: "Create lib/cron/parse.go ...", "please add a new module ...". */
const CREATE_ASK = /^\W*(?:(?:please|pls|can you|could you|let's|lets)\s+)?(?:create|write|implement|scaffold|introduce|add (?:a |an )?new)\b/i;
/** A request with more words than this is a report, whatever it asks. */
const SHORT_ASK = 30;

/**
 * The kinds of decision the anchors leave unsure, each with a confidence of its own (the
 * share of such decisions that were right, out of fold on the train split):
 * `either`: two tasks are named; `fresh-report`: a new report reuses a task's file or words;
 * `uncued-new`: the model opens a task on new words or files, but nothing says new; `new-file`:
 * the anchors open one for a statement about a file and words no task has, where the model
 * folded it into a task that nothing names; `not-new`: a new task with nothing new;
 * `unnamed`: an old task that nothing in the request names.
 */
export const UNSURE_KINDS = ["either", "fresh-report", "uncued-new", "new-file", "new-own-file", "not-new", "unnamed"] as const;
export type UnsureKind = (typeof UNSURE_KINDS)[number];

/** What the anchors make of the fitted model's choice: a new choice, a new confidence, and why. */
export interface AnchorVerdict {
  chosen: TaskCandidate | "new";
  /** The decision's confidence at least this (before the threshold cap); undefined keeps the model's. */
  floor?: number;
  /** Why the decision must stay below the threshold (the full history is kept), if it must. */
  unsure: UnsureKind | undefined;
  why: string;
}

/**
 * Anchors decide where they exist, and "new task" needs positive evidence:
 * 1. the request says it starts a task and names no existing one by id or checkout: a new task, surely;
 * 2. it names exactly one task by its id, label or checkout: that task, surely (an id alone is
 *    outvoted by another task's own file or words);
 * 3. it names exactly one task by its file or by that task's own words or phrases: that task,
 *    surely, unless it reads like a fresh issue report, or it says it starts something and only
 *    words point back (then a new task sharing the task's vocabulary is as likely, and the full
 *    history stays), or the model's choice has a file or name of its own;
 * 4. it names two or more: ambiguous, the full history stays;
 * 5. it names none, and the model opens a task that nothing in the request says is new (no
 *    cue, checkout nor unknown task name; unseen words and paths alone do not): unsure;
 * 6. it names none, brings a file no task has touched and several words nobody used, and
 *    reads as a statement rather than a reply, while the model folds it into a task it does
 *    not name: it starts a task of its own, unsure, never the nearest one's;
 * 7. it names none, brings such words, and the model chose a task with nothing of its own
 *    (no file, checkout, name or back-reference): unsure, as a person would be;
 * 8. it names none and says nothing of its own ("tests pls"): the current task;
 * 9. it names none, and the model chose a task other than the one the session is surely on:
 *    unsure (shared or everyday words do not switch tasks surely).
 * Otherwise the model's decision stands.
 */
export function anchorVerdict(options: {
  /** The request's text. */
  request: string;
  chosen: TaskCandidate | "new";
  candidates: readonly TaskCandidate[];
  anchors: Anchors;
  facts: RequestFacts;
  signals: Signals;
}): AnchorVerdict {
  const { request, chosen, candidates, anchors, facts, signals } = options;
  const { explicitNewTask, reviewCue } = signals;
  const keep: AnchorVerdict = { chosen, unsure: undefined, why: "" };
  if (explicitNewTask && !anchors.strong.some((anchor) => anchor.named))
    return { chosen: "new", floor: CUED_NEW_CONFIDENCE, unsure: undefined, why: "says it starts a new task" };
  const hard = anchors.strong.filter(isHard);
  // An id or label alone is outvoted by another task's own file or words: one of the two is off.
  const firm = hard.length > 0 && !(hard.length === 1 && hard[0]?.byId && anchors.strong.length > 1) ? hard : anchors.strong;
  if (firm.length > 1) {
    const chosenNamed = chosen !== "new" && firm.some((anchor) => anchor.task === chosen.task && anchor.named);
    return chosenNamed ? keep : { chosen, unsure: "either", why: `names ${firm.map((anchor) => anchor.task.id).join(" and ")}: could be either` };
  }
  const anchor = firm[0];
  // "task 2" counts the user's tasks: where it points elsewhere than the anchor, one of them is off.
  if (anchor && !anchor.named && anchors.counted.length > 0 && !anchors.counted.includes(anchor.task)) {
    return { chosen, unsure: "either", why: `${describeAnchor(anchor)} point to ${anchor.task.id}, but its "task N" counts another` };
  }
  if (anchor && facts.unseenCheckout === undefined) {
    const target = candidates.find((candidate) => candidate.task === anchor.task);
    if (!target) return keep;
    const named = { chosen: target, floor: ANCHORED_CONFIDENCE, unsure: undefined, why: `named ${describeAnchor(anchor)}` };
    // A fresh report that reuses a task's file or words is a neighbour of that task as often as a part of it.
    // Not a report: a return ("back to ...", "again", "re: ...") that names its task by what is decisive (a
    // file, a code name, its own name; "another one in ..." starts something), or a short ask to change its file or code.
    const returns = (RETURN_CUE.test(request) || BACK_CUE.test(openingWords(request))) && !facts.newTaskCue && (isHard(anchor) || anchor.ownNames > 0);
    const asksToChangeIt = (anchor.files.length > 0 || anchor.identifiers.length > 0) && new Set(signals.words).size <= SHORT_ASK && CHANGE_ASK.test(request);
    const readsAsFresh =
      (facts.opensLikeIssue && !facts.followUp && !reviewCue && !returns && !asksToChangeIt && anchor.identifiers.length === 0) ||
      (facts.newTaskCue && !isHard(anchor));
    if (readsAsFresh && !anchor.named)
      return { chosen, unsure: "fresh-report", why: `reads like a new report, yet uses ${anchor.task.id}'s ${describeAnchor(anchor).replace(/^its /, "")}` };
    if (isHard(anchor) || chosen === target || chosen === "new") return named;
    const chosenHasOwn = hasOwnEvidence(chosen);
    return chosenHasOwn
      ? {
          chosen,
          unsure: "either",
          why: `${describeAnchor(anchor)} point to ${anchor.task.id}, ${describeCandidate(chosen)} to ${chosen.task.id}: could be either`,
        }
      : named;
  }
  if (anchor) return keep;
  // "Create lib/cron/parse.go that parses ...": an ask to make a file no task has touched opens a task of its own.
  // Unsure all the same: too few such openings were seen to say how often they are right (a test file is the current task's).
  if (facts.unseenSourcePaths > 0 && !facts.followUp && !reviewCue && CREATE_ASK.test(request)) {
    return { chosen: "new", unsure: "new-own-file", why: "asks for a file no task has: may be a new task" };
  }
  const current = candidates.find((candidate) => candidate.values[CURRENT] === 1);
  if (chosen === current && repliesInPlace({ request, chosen, candidates, facts, signals })) {
    return { chosen, floor: REPLY_CONFIDENCE, unsure: undefined, why: "a reply to the task just worked on, naming nothing else and nothing new" };
  }
  if (chosen === "new") {
    // Sure of a new task only on the user's word (a cue, a checkout or a task name nobody has): a
    // comment in new words continues its thread as often as it opens one.
    if (facts.newTaskCue || facts.unseenCheckout !== undefined || facts.unknownReference !== undefined) return keep;
    const somethingNew = facts.unseenPaths > 0 || (anchors.bestTermScore < 1 && facts.unseenWords >= 3);
    return somethingNew
      ? { chosen, unsure: "uncued-new", why: "new words but no cue: may be a new task" }
      : { chosen, unsure: "not-new", why: "nothing in it is new, so not surely a new task" };
  }
  const chosenHasOwn = hasOwnEvidence(chosen);
  if (chosenHasOwn) return keep;
  const readsAsRule = signals.sharedCue || signals.scopeCue || signals.ruleCue;
  // A statement about a file no task has touched, in words no task used, starts a task of its own:
  // unsure, and never the nearest one's (a reply that adds a file, "add a test in tests/...", stays).
  if (facts.unseenPaths > 0 && facts.unseenWords >= UNCUED_NEW_WORDS && !facts.followUp && !reviewCue && !readsAsRule) {
    return { chosen: "new", unsure: "new-file", why: "brings a file and words no task has: may be a new task" };
  }
  // New words alone, with no file and no cue, continue some task as often as they open one: the
  // model's choice stands, unsure (it is no evidence for the next request either way).
  if (facts.unseenWords >= UNCUED_NEW_WORDS) return { chosen, unsure: "unnamed", why: `names no task for sure: may not be ${chosen.task.id}` };
  // A reply with nothing of its own ("tests pls") is about the task just worked on.
  if (facts.bare && current && chosen !== current) return { chosen: current, unsure: undefined, why: "a short reply: the task just worked on" };
  // Words every task could share ("null", "the tests") do not move the conversation to another
  // task surely: only the task it is surely on may be kept on the fitted model's word.
  if (chosen !== current) return { chosen, unsure: "unnamed", why: `names no task for sure: may not be ${chosen.task.id}` };
  return keep;
}

/**
 * A reply ("ok, and ...", "so it's by design. write ...", a review note) to the task the session is
 * surely on, where nothing points to another task (no file, code name, word, checkout or reference
 * of another) and nothing is new to the session (no file nobody touched outside the tests, no code
 * name nobody used, no "the X" in words nobody used, no run of new words without one of the task's):
 * a person reads it as the same task.
 */
function repliesInPlace(options: {
  request: string;
  chosen: TaskCandidate;
  candidates: readonly TaskCandidate[];
  facts: RequestFacts;
  signals: Signals;
}): boolean {
  const { request, chosen, candidates, facts, signals } = options;
  if (!(readsAsReply(request, signals) || signals.reviewCue) || facts.newTaskCue) return false;
  if (facts.unseenSourcePaths > 0 || facts.unseenCodeNames > 0 || facts.newSubject) return false;
  // New words with none of the task's ("also add a dark mode toggle"): a subject of their own.
  if (chosen.evidence.total === 0 && facts.unseenWords >= UNCUED_NEW_WORDS) return false;
  return candidates.every(
    (candidate) => candidate === chosen || (candidate.evidence.total === 0 && !candidate.backReference && !candidate.explicit && !candidate.workspace),
  );
}

/** The model's choice rests on something of its own: its checkout, a reference to it, or one of its files. */
function hasOwnEvidence(candidate: TaskCandidate): boolean {
  return candidate.workspace || candidate.explicit || candidate.backReference || candidate.evidence.files > 0;
}

/** A name, a file or a code name only that task has: decisive whatever language the rest is in. */
export function isHard(anchor: TaskAnchor): boolean {
  return anchor.named || anchor.files.length > 0 || anchor.identifiers.length > 0;
}

/** An anchor as a person says it: "its file src/alpha.py", "its words \"rate limiter\"". */
function describeAnchor(anchor: TaskAnchor): string {
  if (anchor.named) return "its id, label or checkout";
  if (anchor.files.length > 0) return `its file${anchor.files.length === 1 ? "" : "s"} ${anchor.files.join(", ")}`;
  if (anchor.identifiers.length > 0) return `its code name${anchor.identifiers.length === 1 ? "" : "s"} ${anchor.identifiers.join(", ")}`;
  const phrase = anchor.phrases[0];
  return `its words ${
    phrase
      ? `"${phrase}"`
      : anchor.terms
          .slice(0, 3)
          .map((term) => `"${term}"`)
          .join(", ")
  }`;
}

/** What the model's choice rests on, in words. */
function describeCandidate(candidate: TaskCandidate): string {
  if (candidate.workspace) return "its checkout points";
  if (candidate.explicit) return "its name points";
  if (candidate.backReference) return "a back-reference points";
  return "a shared file points";
}
