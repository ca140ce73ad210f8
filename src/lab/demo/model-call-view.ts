import { type ChatRequestBody, messageText } from "../scripted-model/index.js";

/** What one model call received, reduced to what a person wants to see. */
export interface ModelCallView {
  index: number;
  messageCount: number;
  /** Characters of the messages sent (system prompt included): a size proxy. */
  chars: number;
  /** The user requests the model saw, oldest first, without the plug-in's debug line. */
  userTexts: string[];
  /** The plug-in's debug annotation on this call, if any. */
  annotation: string | null;
  /** Tool calls visible in the history, as `tool(args summary)`. */
  toolCalls: string[];
  /** Earlier requests of the session the call did not show: what the plug-in narrowed away. */
  leftOut: string[];
}

const ANNOTATION = /^\[opencode-rcm debug\].*$/m;

/**
 * `directory` is shown as `./` so paths stay readable; `prompts` are the session's requests
 * in order, so the view can say which earlier ones the call left out.
 */
export function viewModelCall(index: number, body: ChatRequestBody, directory: string, prompts: readonly string[] = []): ModelCallView {
  const relative = (text: string) => text.split(`${directory}/`).join("./");
  const toolCalls: string[] = [];
  let annotation: string | null = null;
  for (const message of body.messages) {
    const calls = (message as { tool_calls?: unknown }).tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const call of calls as { function?: { name?: string; arguments?: string } }[]) {
      toolCalls.push(`${call.function?.name ?? "?"}(${relative(summarizeArguments(call.function?.arguments))})`);
    }
  }
  const userTexts = body.messages
    .filter((message) => message.role === "user")
    .map((message) => {
      const text = messageText(message.content);
      annotation = ANNOTATION.exec(text)?.[0] ?? annotation;
      return text.replace(ANNOTATION, "").trim();
    });
  const current = prompts.indexOf(userTexts.at(-1) ?? "");
  return {
    index,
    messageCount: body.messages.length,
    chars: JSON.stringify(body.messages).length,
    userTexts,
    toolCalls,
    annotation,
    leftOut: current <= 0 ? [] : prompts.slice(0, current).filter((prompt) => !userTexts.includes(prompt)),
  };
}

function summarizeArguments(text: string | undefined): string {
  if (!text) return "";
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const main = value.filePath ?? value.command ?? value.pattern ?? Object.values(value)[0];
    return typeof main === "string" ? main : JSON.stringify(main);
  } catch {
    return text.slice(0, 60);
  }
}
