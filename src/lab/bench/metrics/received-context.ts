import { estimateTokens } from "../../../plugin/core/memory/estimate-tokens.js";
import { RECORD_OPEN } from "../../../plugin/core/memory/render-record.js";
import type { SentRequest } from "../drive/run-session.js";
import { type ChatBody, chatMessageText, lastUserText } from "../run-dir/chat-body.js";
import type { FidelityPoint } from "../run-dir/result-line.js";
import { parseRequestText } from "../suite/request-text.js";
import { FINALIZE, type Stage } from "../suite/schema.js";
import { metric } from "./metric.js";
import type { CitingConstraint } from "./plugin-state.js";
import { requestMessageIDs } from "./stored-requests.js";

/** `fidelity`: what the model had in view at each focus resumption and at finalization; only where the calls were recorded. */
export const fidelityMetric = metric("fidelity", (session) => {
  const { calls, run, spec, focus, checkouts, state, messages } = session;
  if (calls.length === 0) return undefined;
  const workspaceTask = new Map([...checkouts].map(([task, checkout]) => [checkout.workspace, task]));
  return fidelityPoints({
    calls,
    requests: run.requests,
    requestMessageIDs: requestMessageIDs(messages, run.requests),
    focus: spec.focus,
    focusStages: focus.task.stages,
    workspaceTask,
    constraints: state.constraints ?? [],
  });
});

/**
 * Context fidelity, measured on the recorded calls: at the first call of each request that
 * resumes the focus after another task's request, and of the finalization request, how many
 * of the focus's earlier requirements the model saw, and how much of its context was other
 * tasks'. `requestMessageIDs` are the stored user message ids of `requests`, in order.
 */
export function fidelityPoints(options: {
  calls: readonly ChatBody[];
  requests: readonly SentRequest[];
  requestMessageIDs: readonly (string | undefined)[];
  focus: string;
  focusStages: readonly Stage[];
  /** Workspace path → the task it belongs to. */
  workspaceTask: ReadonlyMap<string, string>;
  constraints: readonly CitingConstraint[];
}): FidelityPoint[] {
  const { calls, requests, focus } = options;
  const owner = callRequests(calls, requests);
  const points: FidelityPoint[] = [];
  const seen = new Set<number>();
  owner.forEach((index, call) => {
    if (index < 0 || seen.has(index)) return;
    seen.add(index);
    const request = requests[index] as SentRequest;
    const at = pointKind(requests, index, focus);
    if (at === undefined) return;
    const body = calls[call] as ChatBody;
    const earlier = requests
      .slice(0, index)
      .flatMap((sent, position) =>
        sent.task === focus && !sent.continuation && sent.stage !== FINALIZE ? [{ sent, id: options.requestMessageIDs[position] }] : [],
      );
    const inCall = requirementInCall(body, options.constraints);
    let verbatim = 0;
    let cited = 0;
    for (const { sent, id } of earlier) {
      const found = inCall(options.focusStages.find((candidate) => candidate.id === sent.stage)?.request, id);
      if (found === "verbatim") verbatim += 1;
      else if (found === "cited") cited += 1;
    }
    const tokens = contextTokens(body, request.task, options.workspaceTask, focus);
    points.push({ at, entry: request.entry, requirements: earlier.length, verbatim, cited, context_tokens: tokens.all, other_task_tokens: tokens.other });
  });
  return points;
}

/**
 * How a call holds an earlier request of its task: word for word, or only as a memory-record
 * constraint whose sources are the request's stored message (`messageID`); undefined: not at all.
 */
export function requirementInCall(
  body: ChatBody,
  constraints: readonly CitingConstraint[],
  options: { numbered?: boolean } = {},
): (request: string | undefined, messageID: string | undefined) => "verbatim" | "cited" | undefined {
  const text = normalise(body.messages.map(chatMessageText).join("\n"));
  const records = recordBlocks(body);
  // `numbered`: a record lists the user's asks as "1. ...", not "- ..." (the fidelity metric keeps its dash-only match).
  const items = options.numbered ? new Set(records.split("\n").map((line) => line.replace(/^(?:-|\d+\.) /, ""))) : undefined;
  const shows = (constraint: string) => {
    const line = constraint.replace(/\s+/g, " ").trim();
    return items ? items.has(line) : records.includes(`- ${line}`);
  };
  return (request, messageID) => {
    if (request !== undefined && text.includes(normalise(request))) return "verbatim";
    if (messageID !== undefined && constraints.some((constraint) => constraint.sources.includes(messageID) && shows(constraint.text))) return "cited";
    return undefined;
  };
}

/**
 * Which request each call served (-1: none recognised). A call serves the request whose text
 * its last user message holds; a new request starts where that message changes, and repeated
 * identical requests (two continuations in a row) are told apart by how often the text occurs.
 */
export function callRequests(calls: readonly ChatBody[], requests: readonly SentRequest[]): number[] {
  let current = -1;
  let previousKey: string | undefined;
  return calls.map((body) => {
    const last = lastUserText(body);
    const occurrences = body.messages.filter((message) => message.role === "user" && chatMessageText(message) === last).length;
    const key = `${occurrences}\u0000${last}`;
    if (key !== previousKey) {
      const next = requests.findIndex((request, index) => index > current && last.includes(request.text));
      if (next >= 0) current = next;
    }
    previousKey = key;
    return current;
  });
}

function pointKind(requests: readonly SentRequest[], index: number, focus: string): FidelityPoint["at"] | undefined {
  const request = requests[index] as SentRequest;
  if (request.task !== focus || request.continuation) return undefined;
  if (request.stage === FINALIZE) return "finalize";
  const previous = requests
    .slice(0, index)
    .reverse()
    .find((sent) => !sent.continuation);
  return previous !== undefined && previous.task !== focus ? "resume" : undefined;
}

/** Messages count for the task whose request precedes them; a memory record counts for the request it was shown with. */
function contextTokens(body: ChatBody, servedTask: string, workspaceTask: ReadonlyMap<string, string>, focus: string): { all: number; other: number } {
  let all = 0;
  let other = 0;
  let task: string | undefined;
  for (const message of body.messages) {
    if (message.role === "system") continue;
    const text = chatMessageText(message);
    let owner = task;
    if (text.includes(RECORD_OPEN)) owner = servedTask;
    else if (message.role === "user") {
      const workspace = parseRequestText(text)?.workspace;
      const named = workspace === undefined ? undefined : workspaceTask.get(workspace);
      if (named !== undefined) task = owner = named;
    }
    const tokens = estimateTokens(text);
    all += tokens;
    if (owner !== undefined && owner !== focus) other += tokens;
  }
  return { all, other };
}

function recordBlocks(body: ChatBody): string {
  return body.messages
    .map(chatMessageText)
    .filter((text) => text.includes(RECORD_OPEN))
    .map(normalise)
    .join("\n");
}

function normalise(text: string): string {
  return text
    .replace(/[ \t]+/g, " ")
    .replace(/\s*\n\s*/g, "\n")
    .trim();
}
