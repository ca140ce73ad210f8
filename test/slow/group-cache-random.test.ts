import { describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import type { AssistantMessage, MessageWithParts, Part } from "../../src/plugin/core/messages.js";
import { cachedGroups } from "../../src/plugin/handlers/group-cache.js";
import { newLiveSession } from "../../src/plugin/sessions/live-session.js";

// 1,500 random model calls, each grouped twice: in the slow group (test/unit/group-cache.test.ts
// has the recorded sessions).

/** A fresh copy, as OpenCode re-reads the history at every call. */
const reread = (messages: readonly MessageWithParts[]): MessageWithParts[] => structuredClone(messages) as MessageWithParts[];

describe("grouping at each model call, reusing the last call's groups", () => {
  it("gives exactly the groups of a fresh grouping whatever the history does between calls", () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    let next = 0;
    const user = (): MessageWithParts => {
      const id = `msg_u${next++}`;
      const parts: Part[] =
        random() < 0.1
          ? [{ id: `prt_${next++}`, sessionID: "ses", messageID: id, type: "compaction", auto: true }]
          : [{ id: `prt_${next++}`, sessionID: "ses", messageID: id, type: "text", text: `request ${id}`, synthetic: random() < 0.15 }];
      return { info: { id, sessionID: "ses", role: "user", time: { created: next }, agent: "build", model: { providerID: "p", modelID: "m" } }, parts };
    };
    const assistant = (parentID: string, finished: boolean): MessageWithParts => {
      const id = `msg_a${next++}`;
      const tool = {
        id: `prt_${next++}`,
        sessionID: "ses",
        messageID: id,
        type: "tool" as const,
        callID: `call_${next}`,
        tool: random() < 0.2 ? "task" : "edit",
        state: {
          status: "completed" as const,
          input: { filePath: `src/f${next % 7}.py` },
          output: "ok",
          title: "",
          metadata: { sessionId: `ses_child${next}` },
          time: { start: 1, end: 2 },
        },
      };
      const info: AssistantMessage = {
        id,
        sessionID: "ses",
        role: "assistant",
        time: finished ? { created: next, completed: next + 1 } : { created: next },
        parentID,
        modelID: "m",
        providerID: "p",
        mode: "build",
        agent: "build",
        path: { cwd: "/", root: "/" },
        cost: 0,
        tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
        ...(random() < 0.05 ? { summary: true } : {}),
        ...(random() < 0.1 ? { error: { name: pick(["MessageAbortedError", "APIError"]), data: {} } } : {}),
      };
      return { info, parts: random() < 0.7 ? [tool] : [] };
    };
    const live = newLiveSession("ses");
    const groupsOf = (_sessionID: string, messages: readonly MessageWithParts[]) => cachedGroups(live, messages);
    let history: MessageWithParts[] = [user()];
    let previous: readonly object[] = [];
    let reused = 0;
    for (let call = 0; call < 1500; call += 1) {
      const users = history.filter((message) => message.info.role === "user").map((message) => message.info.id);
      const roll = random();
      // The step that streamed last call finishes now (a finished message never changes again).
      history = history.map((message) =>
        message.info.role === "assistant" && message.info.time.completed === undefined && random() < 0.7
          ? { ...message, info: { ...message.info, time: { ...message.info.time, completed: 1 } } }
          : message,
      );
      if (roll < 0.45) history.push(assistant(users.at(-1) ?? "msg_gone", random() < 0.6));
      else if (roll < 0.7) history.push(user());
      // A turn that goes on in an earlier request, an orphan whose request is cut off.
      else if (roll < 0.78) history.push(assistant(pick(users.length > 0 ? users : ["msg_gone"]), true));
      else if (roll < 0.82) history.push(assistant(`msg_cut${next % 3}`, true));
      // A revert (the newest messages gone), a compaction's cut (the oldest gone), a rewritten message.
      else if (roll < 0.87) history = history.slice(0, Math.max(1, history.length - 1 - Math.floor(random() * 4)));
      else if (roll < 0.9) history = history.slice(Math.floor(random() * Math.min(5, history.length)));
      else if (roll < 0.93 && history.length > 2) history[Math.floor(random() * history.length)] = user();
      else history.push(user(), assistant(`msg_u${next - 1}`, false));
      // A long session's head is cut now and then, as compaction does.
      if (history.length > 120) history = history.slice(40);
      const groups = groupsOf("ses", reread(history));
      expect(groups, `call ${call}`).toEqual(toInteractionGroups(history));
      if (groups[0] !== undefined && groups[0] === previous[0]) reused += 1;
      previous = groups;
    }
    // Many calls take the earlier groups as they were (the same objects: 658 of 1,500 with this seed), the rest are grouped anew.
    expect(reused).toBeGreaterThan(500);
  });
});
