import type { MessageWithParts, TextPart } from "../messages.js";

/**
 * What the pipeline's steps decide for one model call, as positions in the messages
 * OpenCode passed: which to leave out, which synthetic messages go right before a message,
 * which synthetic parts are added to one. Applied once, at the end.
 */
export interface ContextPlan {
  readonly dropped: Positions;
  readonly before: ReadonlyMap<number, readonly MessageWithParts[]>;
  readonly appended: ReadonlyMap<number, readonly TextPart[]>;
}

/** Message positions: all a plan's readers ask of the ones left out. */
interface Positions {
  has(index: number): boolean;
  readonly size: number;
}

export const EMPTY_PLAN: ContextPlan = { dropped: new Set(), before: new Map(), appended: new Map() };

export function isEmptyPlan(plan: ContextPlan): boolean {
  return plan.dropped.size === 0 && plan.before.size === 0 && plan.appended.size === 0;
}

/** A plan that also leaves out `indices`. */
export function withDropped(plan: ContextPlan, indices: Iterable<number>): ContextPlan {
  const added = new Set<number>();
  for (const index of indices) if (!plan.dropped.has(index)) added.add(index);
  // A layer over the positions left out so far: a step that leaves out a few more (the memory
  // step, tried at several cuts) never copies the thousands narrowing left out of a long history.
  return { ...plan, dropped: plan.dropped.size === 0 ? added : added.size === 0 ? plan.dropped : layered(plan.dropped, added) };
}

function layered(base: Positions, added: ReadonlySet<number>): Positions {
  return { has: (index) => added.has(index) || base.has(index), size: base.size + added.size };
}

/** A plan that also puts `message` right before the message at `index` (`first`: before what other steps put there). */
export function withInsertedBefore(plan: ContextPlan, index: number, message: MessageWithParts, options: { first?: boolean } = {}): ContextPlan {
  const before = new Map(plan.before);
  const there = before.get(index) ?? [];
  before.set(index, options.first ? [message, ...there] : [...there, message]);
  return { ...plan, before };
}

/** A plan that also adds `part` at the end of the message at `index`. */
export function withAppended(plan: ContextPlan, index: number, part: TextPart): ContextPlan {
  const appended = new Map(plan.appended);
  appended.set(index, [...(appended.get(index) ?? []), part]);
  return { ...plan, appended };
}

/** Positions of the messages that stay, ascending. */
export function keptIndices(messageCount: number, plan: ContextPlan): number[] {
  const kept: number[] = [];
  for (let index = 0; index < messageCount; index += 1) if (!plan.dropped.has(index)) kept.push(index);
  return kept;
}

/** The messages to send. The input is not modified; untouched messages are the same objects. */
export function applyPlan(messages: readonly MessageWithParts[], plan: ContextPlan): MessageWithParts[] {
  const result: MessageWithParts[] = [];
  messages.forEach((message, index) => {
    if (plan.dropped.has(index)) return;
    for (const inserted of plan.before.get(index) ?? []) result.push(inserted);
    const parts = plan.appended.get(index);
    result.push(parts ? { info: message.info, parts: [...message.parts, ...parts] } : message);
  });
  return result;
}
