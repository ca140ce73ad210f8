import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";
import { TASKS_TOOL } from "../../src/plugin/handlers/tasks-answer.js";
import { tasksToolGated } from "../../src/plugin/handlers/tasks-tool-gate.js";
import { createToolGate } from "../../src/plugin/handlers/tool-gate.js";
import { createFailOpenGuard } from "../../src/plugin/sessions/fail-open-guard.js";
import type { SessionStore } from "../../src/plugin/sessions/session-store.js";
import { mainSession } from "../support/fixtures.js";
import { recordingLogger } from "../support/plugin-parts.js";
import { fixedStore, ledgerOf, stateOf } from "../support/routing.js";

/** A fresh copy of a recorded two-request session, as OpenCode hands each call its own objects. */
function history(): MessageWithParts[] {
  return structuredClone(mainSession("two-tasks-with-tool-error"));
}
const sessionOf = (messages: readonly MessageWithParts[]) => messages[0]?.info.sessionID ?? "";
const userTools = (messages: readonly MessageWithParts[]) =>
  messages.filter((message) => message.info.role === "user").map((message) => (message.info.role === "user" ? message.info.tools : undefined));

async function gate(messages: MessageWithParts[], store: SessionStore, afterCompactionOnly = false) {
  const logger = recordingLogger();
  await createToolGate({ store, guard: createFailOpenGuard(logger), tools: [tasksToolGated({ afterCompactionOnly })] })(messages);
  return logger.lines;
}

describe("the rcm_tasks gate", () => {
  it("switches the tool off on every user message of a one-task session, keeping the message's other tool switches", async () => {
    const messages = history();
    const users = messages.filter((message) => message.info.role === "user");
    expect(users.length).toBeGreaterThan(1);
    const first = users[0]?.info;
    if (first?.role === "user") first.tools = { webfetch: false };
    const routing = fixedStore({ [sessionOf(messages)]: stateOf(sessionOf(messages), ledgerOf([["msg_1", "new:one"]])) });
    expect(await gate(messages, routing)).toEqual([]);
    expect(userTools(messages)).toEqual([{ webfetch: false, [TASKS_TOOL]: false }, ...users.slice(1).map(() => ({ [TASKS_TOOL]: false }))]);
  });

  it("leaves the messages alone once a second task is open", async () => {
    const messages = history();
    const before = structuredClone(messages);
    const routing = fixedStore({
      [sessionOf(messages)]: stateOf(
        sessionOf(messages),
        ledgerOf([
          ["msg_1", "new:one"],
          ["msg_2", "new:two"],
        ]),
      ),
    });
    await gate(messages, routing);
    expect(messages).toEqual(before);
  });

  it("switches the tool off while the user has the plug-in off, even with two tasks", async () => {
    const messages = history();
    const routing = fixedStore({
      [sessionOf(messages)]: {
        ...stateOf(
          sessionOf(messages),
          ledgerOf([
            ["msg_1", "new:one"],
            ["msg_2", "new:two"],
          ]),
        ),
        off: true,
      },
    });
    expect(await gate(messages, routing)).toEqual([]);
    expect(userTools(messages).every((tools) => tools?.[TASKS_TOOL] === false)).toBe(true);
  });

  it("in mode memory (every task's history in view), offers it with two tasks only once a compaction is in view", async () => {
    const twoTasks = (messages: MessageWithParts[]) =>
      fixedStore({
        [sessionOf(messages)]: stateOf(
          sessionOf(messages),
          ledgerOf([
            ["msg_1", "new:one"],
            ["msg_2", "new:two"],
          ]),
        ),
      });
    const inView = history();
    await gate(inView, twoTasks(inView), true);
    expect(userTools(inView).every((tools) => tools?.[TASKS_TOOL] === false)).toBe(true);
    const compacted = structuredClone(mainSession("auto-compaction"));
    const before = structuredClone(compacted);
    await gate(compacted, twoTasks(compacted), true);
    expect(compacted).toEqual(before);
  });

  it("switches the tool off in a sub-agent session, where it tracks no tasks", async () => {
    const messages = history();
    await gate(messages, fixedStore({}));
    expect(userTools(messages).every((tools) => tools?.[TASKS_TOOL] === false)).toBe(true);
  });

  it("keeps the tool while the history holds a call of it, so no call loses its definition", async () => {
    const messages = history();
    const tool = messages.flatMap((message) => message.parts).find((part) => part.type === "tool");
    if (tool?.type !== "tool") throw new Error("the fixture has no tool call");
    tool.tool = TASKS_TOOL;
    const before = structuredClone(messages);
    await gate(messages, fixedStore({ [sessionOf(messages)]: stateOf(sessionOf(messages), ledgerOf([["msg_1", "new:one"]])) }));
    expect(messages).toEqual(before);
  });

  it("leaves the tool offered and logs once when the routing state cannot be read", async () => {
    const messages = history();
    const before = structuredClone(messages);
    const broken: SessionStore = {
      ...fixedStore({}),
      current: async () => {
        throw new Error("state file unreadable");
      },
    };
    const lines = await gate(messages, broken);
    expect(messages).toEqual(before);
    expect(lines).toEqual(["error: tool gate failed; the plug-in's tools stay offered for this call"]);
  });
});
