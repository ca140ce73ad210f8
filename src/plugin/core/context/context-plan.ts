import type { MessageWithParts, TextPart } from "../messages.js";

/**
 * What the pipeline's steps decide for one model call, as positions in the messages
 * OpenCode passed: which to leave out, which synthetic messages go right before a message,
 * which synthetic parts are added to one. Applied once, at the end.
 */
export interface ContextPlan {
  readonly dropped: ReadonlySet<number>;
  readonly before: ReadonlyMap<number, readonly MessageWithParts[]>;
  readonly appended: ReadonlyMap<number, readonly TextPart[]>;
}

export const EMPTY_PLAN: ContextPlan = { dropped: new Set(), before: new Map(), appended: new Map() };

export function isEmptyPlan(plan: ContextPlan): boolean {
  return plan.dropped.size === 0 && plan.before.size === 0 && plan.appended.size === 0;
}

/** A plan that also leaves out `indices`. */
export function withDropped(plan: ContextPlan, indices: Iterable<number>): ContextPlan {
  // Added one by one: a spread of a long history's positions costs more than the step itself.
  const dropped = new Set(plan.dropped);
  for (const index of indices) dropped.add(index);
  return { ...plan, dropped };
}

/** A plan that also puts `message` right before the message at `index`. */
export function withInsertedBefore(plan: ContextPlan, index: number, message: MessageWithParts): ContextPlan {
  const before = new Map(plan.before);
  before.set(index, [...(before.get(index) ?? []), message]);
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
