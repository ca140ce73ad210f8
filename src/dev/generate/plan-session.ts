import type { SeededRandom } from "./seeded-random.js";
import type { GeneratedStyle } from "./styles.js";

/** One planned request: its task (index in the session's tasks, or `*` for a shared rule) and style. */
export interface PlannedRequest {
  task: number | "*";
  style: GeneratedStyle;
}

type Kind = "opening" | "shared" | "continue" | "switch";

interface Slot {
  task: number | "*";
  kind: Kind;
  /** The request right before is a shared rule: no terse nudge or bare continuation here. */
  afterShared: boolean;
  style?: GeneratedStyle;
}

const FOLLOW_UP_STYLES = ["exact-file", "task-nouns", "reviewer-note", "pasted-log"] as const;

/**
 * Plans the order of a session of `length` requests over `taskCount` tasks: each task opens
 * once, follow-ups either continue the task before them or switch back to an earlier one
 * (at least 4 switches), and 1-2 shared rules sit in between. Then gives every request a
 * style its position allows, covering every follow-up style where there is room.
 */
export function planSession(random: SeededRandom, taskCount: number, length: number): PlannedRequest[] {
  const shared = random.int(1, 2);
  const order = taskOrder(random, taskCount, length - shared);
  for (let i = 0; i < shared; i++) {
    const candidates = [...Array(order.length - 1).keys()].map((index) => index + 1).filter((at) => order[at] !== "*" && order[at - 1] !== "*");
    order.splice(random.pick(candidates), 0, "*");
  }
  const slots = classify(order);
  styleOpenings(random, slots);
  styleFollowUps(random, slots);
  return slots.map((slot) => ({ task: slot.task, style: slot.style as GeneratedStyle }));
}

/** Task indexes in request order, without shared rules; retried until the order has enough switches. */
function taskOrder(random: SeededRandom, taskCount: number, length: number): Array<number | "*"> {
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const openAt = new Set([0]);
    if (random.chance(0.3)) openAt.add(1);
    const later = [...Array(length - 3).keys()].filter((at) => at > 1);
    for (const at of random.shuffle(later)) {
      if (openAt.size >= taskCount) break;
      openAt.add(at);
    }
    const order: number[] = [];
    const followUps = new Array<number>(taskCount).fill(0);
    let opened = 0;
    let switches = 0;
    for (let at = 0; at < length; at++) {
      if (openAt.has(at)) {
        order.push(opened++);
        continue;
      }
      const previous = order[at - 1] as number;
      const others = [...Array(opened).keys()].filter((task) => task !== previous);
      const task = others.length > 0 && random.chance(0.5) ? random.pick(others) : previous;
      if (task !== previous) switches++;
      followUps[task] = (followUps[task] ?? 0) + 1;
      order.push(task);
    }
    const continues = length - taskCount - switches;
    if (opened === taskCount && switches >= 4 && continues >= 3 && followUps.every((count) => count >= 1)) return order;
  }
  throw new Error(`cannot plan ${taskCount} tasks in ${length} requests`);
}

function classify(order: ReadonlyArray<number | "*">): Slot[] {
  const seen = new Set<number>();
  let previous: number | undefined;
  return order.map((task, at) => {
    const afterShared = at > 0 && order[at - 1] === "*";
    if (task === "*") return { task, kind: "shared", afterShared, style: "shared-rule" };
    const kind: Kind = !seen.has(task) ? "opening" : task === previous ? "continue" : "switch";
    seen.add(task);
    previous = task;
    return { task, kind, afterShared };
  });
}

function styleOpenings(random: SeededRandom, slots: Slot[]): void {
  const openings = slots.filter((slot) => slot.kind === "opening");
  const [first, ...later] = openings;
  if (!first) return;
  first.style = random.weighted([
    ["issue-open", 4],
    ["chat-open", 3.5],
    ["uncued-new", 1.5],
    ["explicit-new", 1],
  ]);
  if (slots[1]?.kind === "opening") slots[1].style = "explicit-new";
  if (random.chance(0.85)) {
    const needed: GeneratedStyle[] = [];
    if (!later.some((slot) => slot.style === "explicit-new")) needed.push("explicit-new");
    needed.push("uncued-new");
    const free = random.shuffle(later.filter((slot) => slot.style === undefined));
    needed.forEach((style, index) => {
      const slot = free[index];
      if (slot) slot.style = style;
    });
  }
  for (const slot of later) {
    slot.style ??= random.weighted([
      ["issue-open", 3],
      ["chat-open", 3],
      ["explicit-new", 2],
      ["uncued-new", 2],
    ]);
  }
}

function styleFollowUps(random: SeededRandom, slots: Slot[]): void {
  const free = () => slots.filter((slot) => slot.style === undefined);
  const place = (style: GeneratedStyle, fits: (slot: Slot) => boolean) => {
    const candidates = free().filter(fits);
    if (candidates.length > 0) random.pick(candidates).style = style;
  };
  const nudgeable = (slot: Slot) => slot.kind === "continue" && !slot.afterShared;
  place("switch-back", (slot) => slot.kind === "switch");
  place("terse-nudge", nudgeable);
  place("bare-continuation", nudgeable);
  for (const style of FOLLOW_UP_STYLES) place(style, () => true);
  for (const slot of free()) {
    slot.style =
      slot.kind === "switch"
        ? random.weighted([
            ["exact-file", 2],
            ["task-nouns", 2],
            ["reviewer-note", 1],
            ["pasted-log", 1],
            ["switch-back", 2],
          ])
        : random.weighted([
            ["exact-file", 2],
            ["task-nouns", 2],
            ["reviewer-note", 1],
            ["pasted-log", 1],
            ...(nudgeable(slot)
              ? ([
                  ["terse-nudge", 1],
                  ["bare-continuation", 1],
                ] as const)
              : []),
          ]);
  }
}
