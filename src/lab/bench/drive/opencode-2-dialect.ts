import { type ChatMessage, messageText, type Reply, type Responder, type ToolCall } from "../../scripted-model/index.js";
import { parseRequestText } from "../suite/request-text.js";

// The scripted agents speak OpenCode 1.18: its tool names and arguments, its compaction request
// and what follows it. OpenCode 2.0.15 differs in four places, translated here so the agents stay
// one: it offers `shell` (not `bash`) and names a file `path` (not `filePath`); it asks for a
// compaction with the history as messages and an instruction last, and refuses a summary without
// its template's headings; it compacts before a turn, so the request that overflowed lands in the
// checkpoint's recent context, serialized as `[User]: ` turns, not as a message of its own; and it
// asks for a title when a session has none.

/** OpenCode 2.0.15's compaction summary headings: a summary without them is asked for again. */
const TEMPLATE_HEADINGS = ["Objective", "Requirements", "Decisions", "Work State", "Next Move", "Relevant Files", "Important Context"] as const;

const COMPACTION_INSTRUCTIONS = [
  "You MUST summarize the conversation above",
  "Update the existing checkpoint in the conversation above",
  "did not fill in the required summary template",
];

/** `agent`, answering OpenCode 2.0.15's requests: titles, compactions (lossy, as the agents' own), tool calls in its names. */
export function opencode2Agent(agent: Responder): Responder {
  return async (request) => {
    const { messages } = request.body;
    if (messageText(messages[0]?.content).startsWith("You are a title generator")) return { text: "Scripted session" };
    const last = messages.findLast((message) => message.role === "user");
    const instruction = messageText(last?.content);
    if (COMPACTION_INSTRUCTIONS.some((marker) => instruction.includes(marker))) return { text: lossyTemplateSummary(messages.slice(0, -1)) };
    const body = { ...request.body, messages: messages.flatMap(unfoldCheckpoint) };
    return inOpencode2Tools(await agent({ ...request, body }));
  };
}

const CHECKPOINT = /^\s*<conversation-checkpoint>/;
const TURN = /^\[(User|Assistant|Tool)[^\]]*\]: /m;

/**
 * A checkpoint message as OpenCode 1.18 would have shown it: the summary, then each turn of the
 * recent context as a message of its own (tool turns left out, as the agents do not read them).
 */
function unfoldCheckpoint(message: ChatMessage): ChatMessage[] {
  const text = message.role === "user" ? messageText(message.content) : "";
  if (!CHECKPOINT.test(text)) return [message];
  const summary = between(text, "<summary>", "</summary>") ?? text;
  const recent = between(text, "<recent-context>", "</recent-context>") ?? "";
  const turns: ChatMessage[] = [];
  const pieces = recent.split(TURN);
  for (let index = 1; index + 1 < pieces.length; index += 2) {
    const role = pieces[index];
    const content = (pieces[index + 1] ?? "").trim();
    if (role === "User") turns.push({ role: "user", content });
    else if (role === "Assistant") turns.push({ role: "assistant", content });
  }
  return [{ role: "user", content: summary.trim() }, ...turns];
}

function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start === -1 || end < start ? undefined : text.slice(start + open.length, end);
}

/**
 * The summary a small model writes under pressure, as `agent/lossy-summary.ts` has it for
 * OpenCode 1.18: the latest request word for word, nothing else; in OpenCode 2's template.
 */
function lossyTemplateSummary(history: readonly ChatMessage[]): string {
  const latest = latestRequest(history);
  return TEMPLATE_HEADINGS.map((heading) => `## ${heading}\n\n- ${heading === "Objective" ? (latest ?? "(none)") : "(none)"}`).join("\n\n");
}

/** The latest `<workspace>: <request>` among the user messages (an earlier checkpoint's recent turns included). */
function latestRequest(history: readonly ChatMessage[]): string | undefined {
  for (const message of history.flatMap(unfoldCheckpoint).reverse()) {
    const request = message.role === "user" ? parseRequestText(messageText(message.content)) : undefined;
    if (request !== undefined) return `${request.workspace}: ${request.request}`;
  }
  return undefined;
}

function inOpencode2Tools(reply: Reply): Reply {
  if (!("toolCalls" in reply) || reply.toolCalls === undefined) return reply;
  return { ...reply, toolCalls: reply.toolCalls.map(opencode2Call) };
}

/** One call in OpenCode 2's tools: `bash` runs as `shell` (no description), a file is `path`. */
function opencode2Call(call: ToolCall): ToolCall {
  const { filePath, description, ...rest } = call.arguments as Record<string, unknown>;
  if (call.name === "bash") return { ...call, name: "shell", arguments: rest };
  if (filePath === undefined) return call;
  return { ...call, arguments: { path: filePath, ...rest, ...(description === undefined ? {} : { description }) } };
}
