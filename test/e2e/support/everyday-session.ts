import { type ChatRequestBody, messageText, type RecordedRequest, type Script } from "../../../src/lab/scripted-model/index.js";
import type { MessageWithParts } from "../../../src/plugin/core/messages.js";

// Requests a person types while juggling tasks in one repository; each has a unique reply.
export const ASK = {
  dates: "Fix the date parser in src/dates.py: parse_date crashes on ISO week dates like 2024-W05.",
  json: "New task: add a --json flag to the command line in src/cli.py so results print as JSON.",
  // Short, with a cue: it opens a task, surely.
  installShort: "New task: update docs/install.md to say Python 3.10 instead of 3.7.",
  // Names two tasks' files: the router is unsure (full history), so the user files it.
  both: "Both src/dates.py and src/cli.py need a module docstring.",
  install:
    "New task: the install guide is out of date. docs/install.md lists Python 3.7 as supported, but setup.py requires 3.10 now; update the guide and its version table.",
  datesAgain: "Back to the date parser in src/dates.py: also accept a lowercase w in week dates.",
  jsonTest: "Also add a test for the --json output.",
  toc: "Also update the table of contents in docs/install.md.",
  rename: "Now rename parse_date to parse_iso in src/dates.py.",
} as const;

/** Every request answered by a reply that names it (`REPLY-<KEY>`), text only. */
export const EVERYDAY_SCRIPT: Script = {
  stages: Object.entries(ASK).map(([key, text]) => ({ id: key, when: text, steps: [{ text: `REPLY-${key.toUpperCase()}: done.` }] })),
};

export function replyOf(key: keyof typeof ASK): string {
  return `REPLY-${key.toUpperCase()}`;
}

/** The body of the first model request whose last user message contains `text`. */
export function requestFor(requests: readonly RecordedRequest[], text: string): string {
  const found = requests.find((request) => {
    const messages = (request.body as ChatRequestBody).messages;
    return messageText(messages.findLast((message) => message.role === "user")?.content).includes(text);
  });
  if (!found) throw new Error(`no model request ends with ${JSON.stringify(text)}`);
  return JSON.stringify(found.body);
}

/** The plug-in's answers: user messages whose only parts are ignored text (shown, never sent). */
export function answers(messages: readonly MessageWithParts[]): string[] {
  return messages
    .filter(
      (message) => message.info.role === "user" && message.parts.length > 0 && message.parts.every((part) => part.type === "text" && part.ignored === true),
    )
    .map((message) => message.parts.map((part) => (part.type === "text" ? part.text : "")).join(""));
}
