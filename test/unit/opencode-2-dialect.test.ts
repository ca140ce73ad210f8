import { describe, expect, it } from "vitest";
import { opencode2Agent } from "../../src/lab/bench/drive/opencode-2-dialect.js";
import type { ChatMessage, Reply, Responder } from "../../src/lab/scripted-model/index.js";

// The scripted agents speak OpenCode 1.18; on OpenCode 2.0.15 their calls go out in its tool
// names, its compaction calls get a summary in its template, and its checkpoint shows them the
// request it holds.

const STAGE = "/run/sessions/s1/native/ws1: Add slugify.";
const OLDER = "/run/sessions/s1/native/ws2: Quote the CSV fields.";

/** An agent that writes a file and runs a command for a request it sees last, and says so otherwise. */
const seen: ChatMessage[][] = [];
const agent: Responder = ({ body }) => {
  seen.push(body.messages);
  const last = body.messages.findLast((message) => message.role === "user");
  if (last?.content !== STAGE) return { text: "I can't tell which task this is." };
  return {
    toolCalls: [
      { name: "write", arguments: { filePath: "/ws1/slugify.py", content: "x" } },
      { name: "edit", arguments: { filePath: "/ws1/a.py", oldString: "a", newString: "b" } },
      { name: "bash", arguments: { command: "cd /ws1 && pytest", description: "Run the tests" } },
    ],
  };
};
const v2 = opencode2Agent(agent);
const ask = (messages: ChatMessage[]) => Promise.resolve(v2({ body: { messages }, index: 0 })) as Promise<Reply>;

describe("the scripted agents on OpenCode 2", () => {
  it("call shell, not bash, and name a file path, not filePath", async () => {
    const reply = await ask([
      { role: "system", content: "You are an AI agent" },
      { role: "user", content: STAGE },
    ]);
    expect(reply.toolCalls).toEqual([
      { name: "write", arguments: { path: "/ws1/slugify.py", content: "x" } },
      { name: "edit", arguments: { path: "/ws1/a.py", oldString: "a", newString: "b" } },
      { name: "shell", arguments: { command: "cd /ws1 && pytest" } },
    ]);
  });

  it("answer a compaction with the latest request alone, under every heading of 2.0.15's template", async () => {
    const reply = await ask([
      { role: "system", content: "You are an AI agent" },
      { role: "user", content: OLDER },
      { role: "assistant", content: "Done." },
      { role: "user", content: STAGE },
      { role: "user", content: "You MUST summarize the conversation above into a structured summary..." },
    ]);
    expect(reply.toolCalls).toBeUndefined();
    expect(reply.text).toContain(`## Objective\n\n- ${STAGE}`);
    expect(reply.text).not.toContain("Quote the CSV");
    for (const heading of ["Requirements", "Decisions", "Work State", "Next Move", "Relevant Files", "Important Context"])
      expect(reply.text).toContain(`## ${heading}`);
  });

  it("see the request a checkpoint holds in its recent context as the latest user message", async () => {
    const checkpoint = [
      "<conversation-checkpoint>",
      "The following is a summary and serialized record of earlier conversation.",
      "",
      "<summary>\n## Objective\n\n- (none)\n</summary>",
      "",
      "<recent-context>",
      `[User]: ${OLDER}`,
      "[Assistant]: Done.",
      `[User]: ${STAGE}`,
      "</recent-context>",
      "</conversation-checkpoint>",
    ].join("\n");
    const reply = await ask([
      { role: "system", content: "You are an AI agent" },
      { role: "user", content: checkpoint },
    ]);
    expect(reply.toolCalls?.map((call) => call.name)).toEqual(["write", "edit", "shell"]);
    expect(seen.at(-1)?.slice(1)).toEqual([
      { role: "user", content: "## Objective\n\n- (none)" },
      { role: "user", content: OLDER },
      { role: "assistant", content: "Done." },
      { role: "user", content: STAGE },
    ]);
  });

  it("answer OpenCode 2's title call without asking the agent", async () => {
    const before = seen.length;
    expect(
      await ask([
        { role: "system", content: "You are a title generator. ..." },
        { role: "user", content: STAGE },
      ]),
    ).toEqual({ text: "Scripted session" });
    expect(seen).toHaveLength(before);
  });
});
