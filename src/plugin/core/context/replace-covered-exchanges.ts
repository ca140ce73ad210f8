import { groupRequestID } from "../interaction-groups.js";
import { estimateTokens } from "../memory/estimate-tokens.js";
import { activeConstraints, covers, type TaskRecord } from "../memory/record.js";
import type { MessageWithParts, TextPart } from "../messages.js";
import type { Ledger } from "../routing/ledger.js";
import { messageTokens, planTokens } from "./call-report.js";
import type { ActiveTask, CallView } from "./call-view.js";
import { type ContextPlan, withDropped, withInsertedBefore } from "./context-plan.js";
import { reusableCut, type ShownRecord } from "./shown-record.js";

/** What the memory step did, for the debug line and `/rcm why`. */
export interface MemoryNote {
  task: string;
  /** Groups whose assistant/tool exchange the record replaced. */
  replacedGroups: number;
  /** Older groups of the task kept whole (not covered, among the most recent, or short of a batch). */
  verbatimGroups: number;
  /** False when the view already holds everything the record carries, or the window has no room for it. */
  recordShown: boolean;
  /** The record shown is the very text an earlier call was given (false: rendered anew for this call). */
  recordKept: boolean;
  /** A compaction summary was in view. */
  compacted: boolean;
  /** How the window's budget shaped the step; absent when there was no budget or it was not needed. */
  window?: "replaced all covered" | "record trimmed" | "no room";
}

/**
 * A cut moves forward only when the exchanges it takes out weigh this many times what the
 * provider then reads again uncached (everything after the first of them that stays, and the
 * record). A cached read costs about a tenth of an uncached one (OpenAI, Anthropic; half at some
 * providers): the move costs one uncached read of that part, and each later call saves the
 * exchanges' cached read, so at three times it has paid for itself by the end of its turn at a
 * tenth, and at once at a half. Until then the exchanges stay verbatim (nothing is lost) and the
 * window's budget can still make them go.
 */
export const PAYBACK = 3;

/** An older exchange of the task that the record covers: it may go, the record standing for it. */
export interface CoveredExchange {
  /** The group's id. */
  id: string;
  /** Positions of its assistant/tool messages (never the user request). */
  exchange: number[];
  tokens: number;
}

/** A record text for a call: the one an earlier call was given (`kept`), or rendered now. */
interface RecordText {
  text: string;
  kept: boolean;
}

/** What the step is given: the call, the plan so far, the task's record and the text shown before. */
interface ReplacementInput {
  view: CallView;
  plan: ContextPlan;
  /** For the requests a shown text came from: still the task's? */
  ledger: Ledger;
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  /** The record's text as it stands now: within its usual bound, or within `maxTokens`. Called only when no shown text will do. */
  render: (maxTokens?: number) => string;
  /** The text this task's calls were last given, and for what. */
  shown?: ShownRecord | undefined;
  keepRecent: number;
  /** 0: replace every covered exchange at once. */
  batchTokens: number;
  /** Estimated tokens the call's messages may take, the record included; undefined: no limit known. */
  budget?: number | undefined;
  /** How many times what the provider would read again a move of the cut must take out (default `PAYBACK`; 0: any batch). */
  payback?: number | undefined;
}

/**
 * Step: puts the active task's record into the context and leaves out the exchanges it covers,
 * keeping the provider's prompt cache where it can. Five named steps, in order:
 * `coveredExchanges` (what may go), `chooseCut` (how many go: whole batches, never back from the
 * text shown, forward when it pays), the record's place (`placeRecord`: before the request, and
 * only when it carries something the view lacks), `fitWindow` (the budget may make more go, trim
 * the record, or leave native history), and the `ShownRecord` to keep for the next call.
 * Groups of other tasks, shared and compaction groups are left as they are.
 */
export function replaceCoveredExchanges(options: ReplacementInput): { plan: ContextPlan; note: MemoryNote; shown: ShownRecord | undefined } {
  const { view, active, record, shown, plan } = options;
  const { messages } = view;
  const inContext = groupsInContext(view, plan);
  const { candidates, verbatimGroups } = coveredExchanges({ view, inContext, active, record, keepRecent: options.keepRecent });
  const compaction = view.groups.findLast((group, position) => inContext[position] && group.kind === "compaction");
  const positionOf = messagePositions(view, active);
  const kept = (index: number) => index >= 0 && !plan.dropped.has(index);
  // How many of the candidates the text shown before stands for, while it still stands.
  const reused = reusableCut({
    shown,
    task: active.task,
    compaction: compaction?.id,
    replaceable: candidates.map((candidate) => candidate.id),
    ledger: options.ledger,
    inView: (id) => kept(positionOf(id)),
  });
  const inForce = reused ?? 0;
  // Rendered at most once, and only when no shown text will do.
  let now: string | undefined;
  const textFor = (count: number): RecordText => {
    if (shown !== undefined && reused === count) return { text: shown.text, kept: true };
    now ??= options.render();
    return { text: now, kept: false };
  };
  const cut = chooseCut({
    tokens: candidates.map((candidate) => candidate.tokens),
    batchTokens: options.batchTokens,
    inForce,
    payback: options.payback ?? PAYBACK,
    readAgain: (count) => tokensReadAgain(messages, plan, candidates.slice(inForce, count), estimateTokens(textFor(count).text)),
  });
  // The record carries something the view lacks: an exchange went, the request is out of view, or the summary in view lacks it.
  const summaryLacks = compaction !== undefined && !summaryCarries(view, record);
  const lacking = (replaced: readonly CoveredExchange[]) => replaced.length > 0 || !active.inView || summaryLacks;
  // A text rendered now goes before the request, or the latest user message when the request is out of view.
  const current = active.inView ? positionOf(active.requestID) : messages.findLastIndex((message, index) => message.info.role === "user" && kept(index));
  // The window tries a cut and then keeps it: the same two arguments give the plan already made.
  let last: { replaced: readonly CoveredExchange[]; chosen: RecordText | undefined; placed: ReturnType<typeof placeRecord> } | undefined;
  const place = (replaced: readonly CoveredExchange[], chosen: RecordText | undefined) => {
    if (last?.replaced === replaced && last.chosen === chosen) return last.placed;
    const placed = placeRecord({
      messages,
      plan: withDropped(
        plan,
        replaced.flatMap((candidate) => candidate.exchange),
      ),
      task: active.task,
      chosen: chosen !== undefined && lacking(replaced) ? chosen : undefined,
      at: chosen?.kept && shown ? positionOf(shown.before) : current,
    });
    last = { replaced, chosen, placed };
    return placed;
  };
  const { replaced, chosen, window } = fitWindow({
    candidates,
    cut,
    budget: options.budget,
    lacking,
    textFor,
    render: options.render,
    tokensWith: (replaced, chosen) => planTokens(messages, place(replaced, chosen).plan),
  });
  const placed = place(replaced, chosen);
  const before = placed.at === undefined ? undefined : messages[placed.at]?.info.id;
  const shownNow = chosen !== undefined && before !== undefined ? { ...chosen, before } : undefined;
  return {
    plan: placed.plan,
    shown:
      shownNow && !shownNow.kept
        ? {
            task: active.task,
            replaced: replaced.map((candidate) => candidate.id),
            ...(compaction ? { compaction: compaction.id } : {}),
            covers: [...record.coverage.groups],
            before: shownNow.before,
            text: shownNow.text,
          }
        : shown,
    note: {
      task: active.task,
      replacedGroups: replaced.length,
      verbatimGroups: verbatimGroups + candidates.length - replaced.length,
      recordShown: shownNow !== undefined,
      recordKept: shownNow?.kept === true,
      compacted: compaction !== undefined,
      ...(window ? { window } : {}),
    },
  };
}

/** Which groups still have a message in the call (the plan's earlier steps may have dropped some). */
function groupsInContext(view: CallView, plan: ContextPlan): boolean[] {
  return view.groups.map((group) => group.indices.some((index) => !plan.dropped.has(index)));
}

/**
 * The task's older exchanges the record may stand in for, oldest first. A group stays whole
 * when it is among the last `keepRecent` groups in the call, or the record does not cover its
 * request; the current request's own work (its orphaned steps after a compaction too) never
 * goes; user requests always stay, so only assistant and tool messages are candidates.
 */
export function coveredExchanges(options: {
  view: CallView;
  inContext: readonly boolean[];
  active: Extract<ActiveTask, { kind: "task" }>;
  record: TaskRecord;
  keepRecent: number;
}): { candidates: CoveredExchange[]; verbatimGroups: number } {
  const { view, inContext, active, record, keepRecent } = options;
  const { groups, tasks, messages } = view;
  const recent = new Set<number>();
  for (let position = groups.length - 1; position >= 0 && recent.size < keepRecent; position -= 1) if (inContext[position]) recent.add(position);
  const candidates: CoveredExchange[] = [];
  let verbatimGroups = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    if (!inContext[position] || task?.kind !== "task" || task.task !== active.task || groupRequestID(group) === active.requestID) return;
    if (recent.has(position) || !covers(record, groupRequestID(group))) {
      verbatimGroups += 1;
      return;
    }
    const exchange = group.indices.filter((index) => !(group.kind === "request" && messages[index]?.info.role === "user"));
    if (exchange.length === 0) return;
    candidates.push({ id: group.id, exchange, tokens: exchange.reduce((sum, index) => sum + messageTokens(messages[index]), 0) });
  });
  return { candidates, verbatimGroups };
}

/** A message's position by id, each id looked up once (the active request's is its group's first message's). */
function messagePositions(view: CallView, active: Extract<ActiveTask, { kind: "task" }>): (messageID: string) => number {
  const { groups, messages } = view;
  const positions = new Map<string, number>();
  const requestAt = groups[active.position]?.indices[0];
  if (active.inView && requestAt !== undefined && messages[requestAt]?.info.id === active.requestID) positions.set(active.requestID, requestAt);
  return (messageID) => {
    let position = positions.get(messageID);
    if (position === undefined) {
      position = messages.findIndex((message) => message.info.id === messageID);
      positions.set(messageID, position);
    }
    return position;
  };
}

/**
 * How many covered exchanges, oldest first, the cut takes. Replacing rewrites history and the
 * provider's cached prefix is lost from the first rewritten message on, so exchanges go in
 * whole batches of `batchTokens` (0: all at once); the same history always gives the same cut,
 * so between batches consecutive calls keep their prefix. The cut never moves back from the
 * one a shown text stands for (`inForce`), and moves forward only when what it takes out
 * weighs `payback` times what the provider must then read again (`readAgain(cut)`).
 */
export function chooseCut(options: {
  tokens: readonly number[];
  batchTokens: number;
  inForce: number;
  payback: number;
  readAgain: (cut: number) => number;
}): number {
  const { tokens, batchTokens, inForce, payback } = options;
  const cut = Math.max(batchCut(tokens, batchTokens), inForce);
  if (cut <= inForce || batchTokens <= 0 || payback <= 0) return cut;
  const goes = tokens.slice(inForce, cut).reduce((sum, value) => sum + value, 0);
  return goes < payback * options.readAgain(cut) ? inForce : cut;
}

/** How many of the candidates, oldest first, make up the whole batches: cumulative tokens up to the last multiple of `batch`. */
function batchCut(tokens: readonly number[], batch: number): number {
  if (batch <= 0) return tokens.length;
  const total = tokens.reduce((sum, value) => sum + value, 0);
  const target = Math.floor(total / batch) * batch;
  if (target === 0) return 0;
  let sum = 0;
  for (let count = 0; count < tokens.length; count += 1) {
    sum += tokens[count] ?? 0;
    if (sum >= target) return count + 1;
  }
  return tokens.length;
}

/** What the provider reads uncached once `moved` go: the record's text and every message from the first of them on that stays. */
function tokensReadAgain(messages: readonly MessageWithParts[], plan: ContextPlan, moved: readonly CoveredExchange[], textTokens: number): number {
  const from = Math.min(...moved.flatMap((candidate) => candidate.exchange));
  const dropped = new Set(moved.flatMap((candidate) => candidate.exchange));
  let readAgain = textTokens;
  for (let index = from; index < messages.length; index += 1) if (!dropped.has(index) && !plan.dropped.has(index)) readAgain += messageTokens(messages[index]);
  return readAgain;
}

/**
 * The record as a synthetic user message right before the user message at `at`: what comes
 * before keeps its bytes and the request stays the last user message, verbatim. A kept text
 * goes where it went before, so the prefix holds until the cut moves. No record (`chosen`
 * undefined) or no user message there: the plan as given.
 */
function placeRecord(options: { messages: readonly MessageWithParts[]; plan: ContextPlan; task: string; chosen: RecordText | undefined; at: number }): {
  plan: ContextPlan;
  at?: number;
} {
  const { messages, plan, chosen, at } = options;
  const anchor = messages[at];
  if (chosen === undefined || anchor === undefined || anchor.info.role !== "user") return { plan };
  return { plan: withInsertedBefore(plan, at, recordMessage(anchor, options.task, chosen.text)), at };
}

/**
 * The window's say, with a `budget` (the tokens the call may take before OpenCode would
 * compact): the memory never pushes the call over it. When the record does not fit beside the
 * cut, every covered exchange goes at once (a compaction would cost far more than the cache),
 * then the record is trimmed to the room left, and if even that does not fit, nothing changes:
 * native history, as without the plug-in.
 */
export function fitWindow(options: {
  candidates: readonly CoveredExchange[];
  cut: number;
  budget: number | undefined;
  /** Whether the record carries something the view lacks once these exchanges go. */
  lacking: (replaced: readonly CoveredExchange[]) => boolean;
  textFor: (cut: number) => RecordText;
  render: (maxTokens?: number) => string;
  tokensWith: (replaced: readonly CoveredExchange[], chosen: RecordText | undefined) => number;
}): { replaced: readonly CoveredExchange[]; chosen: RecordText | undefined; window?: MemoryNote["window"] } {
  const { candidates, budget, textFor, tokensWith } = options;
  const batched = candidates.slice(0, options.cut);
  if (!options.lacking(batched)) return { replaced: batched, chosen: undefined };
  const first = textFor(batched.length);
  if (budget === undefined || tokensWith(batched, first) <= budget) return { replaced: batched, chosen: first };
  const all = textFor(candidates.length);
  if (tokensWith(candidates, all) <= budget) return { replaced: candidates, chosen: all, window: "replaced all covered" };
  const room = budget - tokensWith(candidates, undefined);
  const trimmed = room > 0 ? options.render(room) : undefined;
  if (trimmed !== undefined && estimateTokens(trimmed) <= room)
    return { replaced: candidates, chosen: { text: trimmed, kept: false }, window: "record trimmed" };
  return { replaced: [], chosen: undefined, window: "no room" };
}

/** Whether a compaction summary in view already carries every constraint of the record, word for word. */
function summaryCarries(view: CallView, record: TaskRecord): boolean {
  const constraints = activeConstraints(record).map((constraint) => flat(constraint.text));
  if (constraints.length === 0) return false;
  const summary = flat(
    view.groups
      .filter((group) => group.kind === "compaction")
      .flatMap((group) => group.indices.flatMap((index) => view.messages[index]?.parts ?? []))
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("\n"),
  );
  return constraints.every((constraint) => summary.includes(constraint));
}

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * A record as a synthetic user message modelled on the user message `anchor`. Injected
 * messages are never stored; OpenCode sends (or serializes) them without checking ids.
 */
export function recordMessage(anchor: MessageWithParts, task: string, text: string, id = `${anchor.info.id}-rcm-memory`): MessageWithParts {
  const part: TextPart = { id: `rcm-memory-${task}`, sessionID: anchor.info.sessionID, messageID: id, type: "text", text, synthetic: true };
  return { info: { ...anchor.info, id } as MessageWithParts["info"], parts: [part] };
}
