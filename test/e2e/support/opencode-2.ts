import { type ChatRequestBody, messageText, type Reply, type Responder, type Script, selectReply } from "../../../src/lab/scripted-model/index.js";

/** A summary in OpenCode 2.0.15's compaction template: it refuses one without these headings. */
const TEMPLATE_SUMMARY = [
  "## Objective",
  "- (scripted summary)",
  "## Requirements",
  "- (none)",
  "## Decisions",
  "- (none)",
  "## Work State",
  "### Completed",
  "- (none)",
  "### Active",
  "- (none)",
  "### Blocked",
  "- (none)",
  "## Next Move",
  "1. (none)",
  "## Relevant Files",
  "- (none)",
  "## Important Context",
  "- (none)",
].join("\n\n");

/** Whether a request is OpenCode 2's title call (its own system prompt; the plug-in never sees it). */
export function isTitleRequest(body: ChatRequestBody): boolean {
  return messageText(body.messages[0]?.content).startsWith("You are a title generator");
}

/** Whether a request is OpenCode 2's compaction call (its summary prompt comes last). */
export function isCompactionCall(body: ChatRequestBody): boolean {
  const last = body.messages.findLast((message) => message.role === "user");
  const text = messageText(last?.content);
  return text.includes("You MUST summarize the conversation above") || text.includes("did not fill in the required summary template");
}

/** The scripted model for OpenCode 2: titles and summaries as 2.0.15 wants them, the script for the rest. */
export function opencode2Responder(script: Script): Responder {
  return ({ body }): Reply => {
    if (isTitleRequest(body)) return { text: "Scripted title" };
    if (isCompactionCall(body)) return { text: TEMPLATE_SUMMARY };
    return selectReply({ script, body }).reply;
  };
}

/** The user texts of a request, in order. */
export function userTexts(body: unknown): string[] {
  return (body as ChatRequestBody).messages.filter((message) => message.role === "user").map((message) => messageText(message.content));
}
