import { describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import type { ContextMessage } from "../../src/plugin/hosts/opencode-2/server/api.js";
import { fromContext } from "../../src/plugin/hosts/opencode-2/server/context-messages.js";

// A request as OpenCode 2.0.15 hands it to the context hook (shapes recorded from the binary).
const REQUEST: ContextMessage[] = [
  { id: "msg_1", role: "user", content: [{ type: "text", text: "Add slugify." }], metadata: {} },
  { id: "msg_2", role: "assistant", content: [{ type: "tool-call", id: "call_1", name: "write", input: { path: "slugify.py", content: "x" } }] },
  { role: "tool", content: [{ type: "tool-result", id: "call_1", name: "write", result: { type: "text", value: "Wrote file successfully: slugify.py" } }] },
  { id: "msg_3", role: "assistant", content: [{ type: "text", text: "Added." }] },
  { role: "system", content: [{ type: "text", text: "The Code Mode tool catalog has changed." }] },
  { id: "msg_4", role: "user", content: [{ type: "text", text: "Quote the CSV fields." }], metadata: {} },
  { id: "msg_5", role: "assistant", content: [{ type: "tool-call", id: "call_2", name: "shell", input: { command: "pytest" } }] },
  { role: "tool", content: [{ type: "tool-result", id: "call_2", name: "shell", result: { type: "error", value: { error: { message: "exit 1" } } } }] },
  { id: "msg_6", role: "user", content: [{ type: "text", text: "Back to slugify." }], metadata: {} },
];

function convert(messages: readonly ContextMessage[] = REQUEST) {
  return fromContext({ sessionID: "ses_1", agent: "build", model: { id: "m1", providerID: "fake" }, messages });
}

describe("OpenCode 2's request messages as the plug-in reads them", () => {
  it("makes each user message a group and each assistant step part of the group before it, tool results completing its calls", () => {
    const { messages } = convert();
    const groups = toInteractionGroups(messages);
    expect(groups.map((group) => [group.id, group.kind, group.requestText])).toEqual([
      ["msg_1", "request", "Add slugify."],
      ["msg_4", "request", "Quote the CSV fields."],
      ["msg_6", "request", "Back to slugify."],
    ]);
    expect(groups[0]?.toolCalls).toEqual([{ callID: "call_1", tool: "write", status: "completed", input: { path: "slugify.py", content: "x" } }]);
    // OpenCode 2's shell is the bash the memory reads test runs from; a failed result is an error.
    expect(groups[1]?.toolCalls).toEqual([{ callID: "call_2", tool: "bash", status: "error", input: { command: "pytest" } }]);
    const step = messages.find((message) => message.info.id === "msg_2");
    expect(step?.parts[0]).toMatchObject({ type: "tool", state: { status: "completed", output: "Wrote file successfully: slugify.py" } });
  });

  it("gives back every message as OpenCode sent it when the plug-in changed nothing", () => {
    expect(convert().back()).toEqual(REQUEST);
  });

  it("leaves out a dropped step's tool results with it, keeps the system update in place, and adds what the plug-in inserted or appended", () => {
    const converted = convert();
    const { messages } = converted;
    const second = messages.findIndex((message) => message.info.id === "msg_4");
    const last = messages[messages.length - 1] as MessageWithParts;
    const record: MessageWithParts = {
      info: { ...(messages[0] as MessageWithParts).info, id: "msg_1-rcm-memory" },
      parts: [{ id: "rcm-memory-t1", sessionID: "ses_1", messageID: "msg_1-rcm-memory", type: "text", text: "<record of t1>", synthetic: true }],
    };
    const note = { id: "rcm-note", sessionID: "ses_1", messageID: "msg_6", type: "text" as const, text: "[note]", synthetic: true };
    // As the transform's plan does: drop msg_4's group, put a record first, append to the last message.
    const next = [record, ...messages.slice(0, second), { info: last.info, parts: [...last.parts, note] }];
    messages.length = 0;
    messages.push(...next);
    expect(converted.back()).toEqual([
      { role: "user", content: [{ type: "text", text: "<record of t1>" }] },
      REQUEST[0],
      REQUEST[1],
      REQUEST[2],
      REQUEST[3],
      REQUEST[4],
      {
        ...REQUEST[8],
        content: [
          { type: "text", text: "Back to slugify." },
          { type: "text", text: "[note]" },
        ],
      },
    ]);
  });

  it("reads OpenCode 2's checkpoint after a compaction as a compaction marker, not a request to route", () => {
    const checkpoint: ContextMessage = {
      id: "msg_9",
      role: "user",
      content: "<conversation-checkpoint>\n<summary>## Objective\n- x</summary>\n</conversation-checkpoint>",
    };
    const groups = toInteractionGroups(convert([checkpoint, ...REQUEST.slice(5)]).messages);
    expect(groups.map((group) => [group.id, group.kind, group.requestText])).toEqual([
      ["msg_9", "compaction", ""],
      ["msg_4", "request", "Quote the CSV fields."],
      ["msg_6", "request", "Back to slugify."],
    ]);
  });
});
