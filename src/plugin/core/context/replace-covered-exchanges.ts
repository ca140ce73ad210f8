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

interface Candidate {
  /** The group's id. */
  id: string;
  /** Positions of its assistant/tool messages. */
  exchange: number[];
  tokens: number;
}

/**
 * Step: puts the active task's record into the context and leaves out the exchanges it covers,
 * keeping the provider's prompt cache where it can.
 * - User requests always stay; the last `keepRecent` groups still in the context stay whole.
 * - An older group of the task loses its assistant/tool messages only if the record's
 *   coverage includes it (continuations and orphans carry no request and go whole).
 * - Replacing rewrites history, and the cached prefix is lost from the first rewritten
 *   message on. So covered exchanges go in batches: the longest run of covered groups, oldest
 *   first, that completes a whole number of `batchTokens` (estimated); the rest stay verbatim
 *   until the next batch is full. The same history always gives the same cut, so between
 *   batches consecutive calls keep their prefix. A cut never moves back while the text shown
 *   for it still stands (`shown`), and moves forward only when what it takes out pays for what
 *   the provider must read again (`PAYBACK`; with `batchTokens` 0, at once).
 * - The record goes in only when it carries something the view lacks: an exchange was
 *   replaced, the request itself was compacted away, or a compaction summary is in view that
 *   does not already carry the record's constraints.
 * - It is a synthetic user message right before the current request (or, with the request out
 *   of view, before the latest user message), so what comes before it keeps its bytes and the
 *   request stays the last user message, verbatim. And there it stays, with the very text it
 *   had (`shown`), for as long as that text stands: until the cut moves, a compaction comes,
 *   or a request it came from moves to another task. The record is brought up to date after
 *   every turn, but what changed since is in view verbatim (the exchanges after the cut, and
 *   every user request), so later calls re-read only their newest turn; and when the cut does
 *   move, the prefix breaks at the newly replaced exchanges, which come after where the text
 *   was. Whenever the text is rendered anew it is returned as the next `shown`.
 * - Groups of other tasks, shared and compaction groups are left as they are.
 * - With a `budget` (the tokens the call's messages may take before OpenCode would compact),
 *   the memory never pushes the call over it: when the record does not fit, every covered
 *   exchange goes at once (a compaction would cost far more than the cache), then the record
 *   is trimmed to the room left (constraints kept), and if even that does not fit, the step
 *   changes nothing: native history, as without the plug-in.
 */
export function replaceCoveredExchanges(options: {
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
}): { plan: ContextPlan; note: MemoryNote; shown: ShownRecord | undefined } {
  const { view, active, record, shown } = options;
  const { keepRecent, batchTokens } = options;
  const { groups, tasks, messages } = view;
  const inContext = groups.map((group) => group.indices.some((index) => !options.plan.dropped.has(index)));
  const recent = new Set<number>();
  for (let position = groups.length - 1; position >= 0 && recent.size < keepRecent; position -= 1) if (inContext[position]) recent.add(position);
  const candidates: Candidate[] = [];
  let verbatimGroups = 0;
  groups.forEach((group, position) => {
    const task = tasks[position];
    // The current request's own work (its orphaned steps after a compaction too) is never replaced.
    if (!inContext[position] || task?.kind !== "task" || task.task !== active.task || groupRequestID(group) === active.requestID) return;
    if (recent.has(position) || !covers(record, groupRequestID(group))) {
      verbatimGroups += 1;
      return;
    }
    const exchange = group.indices.filter((index) => !(group.kind === "request" && messages[index]?.info.role === "user"));
    if (exchange.length === 0) return;
    candidates.push({ id: group.id, exchange, tokens: exchange.reduce((sum, index) => sum + messageTokens(messages[index]), 0) });
  });
  const compaction = groups.findLast((group, position) => inContext[position] && group.kind === "compaction");
  const kept = (index: number) => index >= 0 && !options.plan.dropped.has(index);
  // Each id looked up once (the request's position is its group's first message's).
  const positions = new Map<string, number>();
  const requestAt = groups[active.position]?.indices[0];
  if (active.inView && requestAt !== undefined && messages[requestAt]?.info.id === active.requestID) positions.set(active.requestID, requestAt);
  const positionOf = (messageID: string): number => {
    let position = positions.get(messageID);
    if (position === undefined) {
      position = messages.findIndex((message) => message.info.id === messageID);
      positions.set(messageID, position);
    }
    return position;
  };
  const replaceable = candidates.map((candidate) => candidate.id);
  const reused = reusableCut({
    shown,
    task: active.task,
    compaction: compaction?.id,
    replaceable,
    ledger: options.ledger,
    inView: (id) => kept(positionOf(id)),
  });
  const summaryLacks = compaction !== undefined && !summaryCarries(view, record);
  const lacking = (replaced: number) => replaced > 0 || !active.inView || summaryLacks;
  // The text for a cut of `count`: the one shown before when it stands for that cut, else the record now.
  let now: string | undefined;
  const textFor = (count: number): { text: string; kept: boolean } => {
    if (shown !== undefined && reused === count) return { text: shown.text, kept: true };
    now ??= options.render();
    return { text: now, kept: false };
  };
  // The cut: whole batches, never back from the one shown; a move forward only when it pays for the cache it costs.
  const inForce = reused ?? 0;
  let cut = Math.max(
    batchCut(
      candidates.map((candidate) => candidate.tokens),
      batchTokens,
    ),
    inForce,
  );
  const payback = options.payback ?? PAYBACK;
  if (cut > inForce && batchTokens > 0 && payback > 0) {
    const moved = candidates.slice(inForce, cut);
    const goes = moved.reduce((sum, candidate) => sum + candidate.tokens, 0);
    const from = Math.min(...moved.flatMap((candidate) => candidate.exchange));
    const dropped = new Set(moved.flatMap((candidate) => candidate.exchange));
    let readAgain = estimateTokens(textFor(cut).text);
    for (let index = from; index < messages.length; index += 1)
      if (!dropped.has(index) && !options.plan.dropped.has(index)) readAgain += messageTokens(messages[index]);
    if (goes < payback * readAgain) cut = inForce;
  }
  const batched = candidates.slice(0, cut);
  // Where a text rendered now goes: before the request, or the latest user message when it is out of view.
  const current = active.inView ? positionOf(active.requestID) : messages.findLastIndex((message, index) => message.info.role === "user" && kept(index));
  const withRecord = (replaced: readonly Candidate[], chosen: { text: string; kept: boolean } | undefined): { plan: ContextPlan; at?: number } => {
    const plan = withDropped(
      options.plan,
      replaced.flatMap((candidate) => candidate.exchange),
    );
    if (chosen === undefined || !lacking(replaced.length)) return { plan };
    const at = chosen.kept && shown ? positionOf(shown.before) : current;
    const anchor = messages[at];
    if (anchor === undefined || anchor.info.role !== "user") return { plan };
    return { plan: withInsertedBefore(plan, at, recordMessage(anchor, active.task, chosen.text)), at };
  };
  const tokensWith = (replaced: readonly Candidate[], chosen: { text: string; kept: boolean } | undefined) =>
    planTokens(messages, withRecord(replaced, chosen).plan);
  const finish = (replaced: readonly Candidate[], chosen: { text: string; kept: boolean } | undefined, window?: MemoryNote["window"]) => {
    const { plan, at } = withRecord(replaced, chosen);
    const before = at === undefined ? undefined : messages[at]?.info.id;
    const recordShown = chosen !== undefined && before !== undefined;
    const next: ShownRecord | undefined =
      recordShown && !chosen.kept
        ? {
            task: active.task,
            replaced: replaced.map((candidate) => candidate.id),
            ...(compaction ? { compaction: compaction.id } : {}),
            covers: [...record.coverage.groups],
            before,
            text: chosen.text,
          }
        : shown;
    return {
      plan,
      shown: next,
      note: {
        task: active.task,
        replacedGroups: replaced.length,
        verbatimGroups: verbatimGroups + candidates.length - replaced.length,
        recordShown,
        recordKept: recordShown && chosen.kept,
        compacted: compaction !== undefined,
        ...(window ? { window } : {}),
      },
    };
  };
  const { budget } = options;
  if (!lacking(batched.length)) return finish(batched, undefined);
  const first = textFor(batched.length);
  if (budget === undefined || tokensWith(batched, first) <= budget) return finish(batched, first);
  const all = textFor(candidates.length);
  if (tokensWith(candidates, all) <= budget) return finish(candidates, all, "replaced all covered");
  const room = budget - tokensWith(candidates, undefined);
  const trimmed = room > 0 ? options.render(room) : undefined;
  if (trimmed !== undefined && estimateTokens(trimmed) <= room) return finish(candidates, { text: trimmed, kept: false }, "record trimmed");
  return finish([], undefined, "no room");
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

/**
 * A record as a synthetic user message modelled on the user message `anchor`. Injected
 * messages are never stored; OpenCode sends (or serializes) them without checking ids.
 */
export function recordMessage(anchor: MessageWithParts, task: string, text: string, id = `${anchor.info.id}-rcm-memory`): MessageWithParts {
  const part: TextPart = { id: `rcm-memory-${task}`, sessionID: anchor.info.sessionID, messageID: id, type: "text", text, synthetic: true };
  return { info: { ...anchor.info, id } as MessageWithParts["info"], parts: [part] };
}
