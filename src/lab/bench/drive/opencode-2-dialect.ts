import { type ChatMessage, messageText, type Reply, type Responder, type ToolCall } from "../../scripted-model/index.js";
import { parseRequestText } from "../suite/request-text.js";

// The scripted agents speak OpenCode 1.18: its tool names and arguments, its compaction request.
// OpenCode 2.0.15 differs in three places, translated here so the agents stay one: it offers
// `shell` (not `bash`) and names a file `path` (not `filePath`); it asks for a compaction with the
// history as messages and an instruction last, and refuses a summary without its template's
// headings; and it asks for a title when a session has none.

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
    return inOpencode2Tools(await agent(request));
  };
}

/**
 * The summary a small model writes under pressure, as `agent/lossy-summary.ts` has it for
 * OpenCode 1.18: the latest request word for word, nothing else; in OpenCode 2's template.
 */
function lossyTemplateSummary(history: readonly ChatMessage[]): string {
  const latest = latestRequest(history);
  return TEMPLATE_HEADINGS.map((heading) => `## ${heading}\n\n- ${heading === "Objective" ? (latest ?? "(none)") : "(none)"}`).join("\n\n");
}

/** The latest `<workspace>: <request>` among the user messages, an earlier checkpoint's objective included. */
function latestRequest(history: readonly ChatMessage[]): string | undefined {
  for (const message of [...history].reverse()) {
    if (message.role !== "user") continue;
    const text = messageText(message.content);
    const candidates = [text, ...text.split("\n").flatMap((line) => (line.startsWith("- ") ? [line.slice(2)] : []))];
    for (const candidate of candidates) {
      const request = parseRequestText(candidate);
      if (request !== undefined) return `${request.workspace}: ${request.request}`;
    }
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
