import { clip } from "../clip.js";
import { CHARS_PER_TOKEN, estimateTokens } from "../memory/estimate-tokens.js";
import type { GroupDigest, ToolCallDigest } from "../memory/group-digest.js";
import type { LedgerTask } from "../routing/ledger.js";
import type { NumberedExchange } from "./hidden-exchanges.js";

/** The most one `rcm_recall` answer takes of the model's context: a glance back, not the history again. */
export const RECALL_TOKENS = 2000;

// Each piece of an exchange is cut to a glance: the request nearly whole, tool calls in brief.
const REQUEST_CHARS = 1000;
const ANSWER_CHARS = 800;
const ARGUMENT_CHARS = 160;
const RESULT_CHARS = 240;
const TOOLS_SHOWN = 8;

/**
 * `rcm_recall`'s answer: a task's hidden exchanges (newest first, as given) as text, each with
 * the user's request, its tool calls in brief (tool, main argument, a clipped result) and the
 * assistant's words, as many as `limit` allows and fit `maxTokens`. `hiddenTotal`: how many
 * were hidden in all (more than given when the caller passed only those that could fit).
 * Returns the text and how many exchanges it shows. Pure; the caller redacts first.
 */
export function renderRecall(options: {
  task: LedgerTask;
  total: number;
  hidden: readonly NumberedExchange[];
  hiddenTotal?: number;
  limit?: number | undefined;
  maxTokens?: number;
}): { text: string; exchanges: number } {
  const { task, total, hidden, limit, maxTokens = RECALL_TOKENS } = options;
  const hiddenTotal = options.hiddenTotal ?? hidden.length;
  const name = `${task.id} "${task.title}"`;
  if (total === 0) return { text: `${name} has no exchanges in this session's history.`, exchanges: 0 };
  if (hiddenTotal === 0) return { text: `Nothing of ${name} is hidden from you: its ${plural(total, "exchange")} are in your context.`, exchanges: 0 };
  const head = `${name}: ${plural(hiddenTotal, "exchange")} of it left out of your context (secrets redacted), newest first:`;
  const blocks: string[] = [];
  // Room is kept for the closing line; each block's share includes the blank line before it.
  let tokens = estimateTokens(head) + estimateTokens(`\n\n${leftOut(hiddenTotal, "budget")}`);
  for (const exchange of hidden) {
    if (limit !== undefined && blocks.length >= limit) break;
    const block = renderExchange(task.id, exchange, total);
    const size = estimateTokens(block) + 1;
    if (tokens + size > maxTokens) {
      // The newest always shows, cut to fit: an answer with no exchange helps nobody.
      if (blocks.length === 0) blocks.push(cutToTokens(block, maxTokens - tokens - 1));
      break;
    }
    blocks.push(block);
    tokens += size;
  }
  const left = hiddenTotal - blocks.length;
  const tail = left > 0 ? [leftOut(left, limit !== undefined && blocks.length >= limit ? "limit" : "budget")] : [];
  return { text: [head, ...blocks, ...tail].join("\n\n"), exchanges: blocks.length };
}

function leftOut(count: number, why: "limit" | "budget"): string {
  const reason = why === "limit" ? "the limit you gave" : `about ${RECALL_TOKENS.toLocaleString("en-US")} tokens is the most one recall returns`;
  return `(${plural(count, "older exchange")} left out: ${reason})`;
}

function renderExchange(task: string, { number, digest }: NumberedExchange, total: number): string {
  const lines = [`[${task} exchange ${number} of ${total}]`, `User: ${requestLine(digest)}`];
  const calls = digest.steps.flatMap((step) => (step.kind === "tool" ? [step.call] : []));
  for (const call of calls.slice(0, TOOLS_SHOWN)) lines.push(`- ${call.tool} ${mainArgument(call)}: ${result(call)}`);
  if (calls.length > TOOLS_SHOWN) lines.push(`- … ${plural(calls.length - TOOLS_SHOWN, "more tool call")}`);
  const answer = digest.steps.flatMap((step) => (step.kind === "text" ? [step.text.trim()] : [])).join("\n\n");
  // The end of the assistant's words: where it says what it did.
  if (answer !== "") lines.push(`Assistant: ${answer.length > ANSWER_CHARS ? `…${answer.slice(-(ANSWER_CHARS - 1))}` : answer}`);
  return lines.join("\n");
}

function requestLine(digest: GroupDigest): string {
  if (digest.requestText !== "") return clip(digest.requestText, REQUEST_CHARS);
  return digest.kind === "continuation" ? "(no new request: it went on with the one before)" : "(the request is no longer in the history)";
}

// The argument that says what a call was about, in OpenCode's tools and most others.
const MAIN_ARGUMENTS = ["filePath", "file_path", "path", "command", "pattern", "url", "query", "description", "prompt"];

function mainArgument(call: ToolCallDigest): string {
  const key = MAIN_ARGUMENTS.find((candidate) => typeof call.input[candidate] === "string");
  const value = key === undefined ? JSON.stringify(call.input) : String(call.input[key]);
  return clip(oneLine(value), ARGUMENT_CHARS);
}

function result(call: ToolCallDigest): string {
  if (call.status === "error") return `error: ${clip(oneLine(call.error ?? ""), RESULT_CHARS)}`;
  if (call.status !== "completed") return `(${call.status})`;
  const output = oneLine(call.output ?? "");
  return output === "" ? "(no output)" : clip(output, RESULT_CHARS);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The text cut (with an ellipsis) to at most `tokens` estimated tokens. */
function cutToTokens(text: string, tokens: number): string {
  return clip(text, Math.max(0, Math.floor(tokens * CHARS_PER_TOKEN) - 1), { ellipsisIs: "extra" });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
