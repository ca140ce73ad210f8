import { describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import type { AssistantMessage, MessageWithParts } from "../../src/plugin/core/messages.js";
import { cachedGroups } from "../../src/plugin/handlers/group-cache.js";
import { type LiveSession, newLiveSession } from "../../src/plugin/sessions/live-session.js";
import { fixtureNames, mainSession } from "../support/fixtures.js";

/** A fresh copy, as OpenCode re-reads the history at every call. */
const reread = (messages: readonly MessageWithParts[]): MessageWithParts[] => structuredClone(messages) as MessageWithParts[];

/** The message as it is while its step still streams: no completion time, only its first parts. */
function streaming(message: MessageWithParts): MessageWithParts {
  if (message.info.role !== "assistant") return message;
  const { completed: _completed, ...time } = message.info.time;
  return { info: { ...message.info, time } as AssistantMessage, parts: message.parts.slice(0, Math.ceil(message.parts.length / 2)) };
}

describe("grouping at each model call, reusing the last call's groups", () => {
  it("gives exactly the groups of a fresh grouping at every call of the recorded sessions, the latest step streaming", () => {
    for (const name of fixtureNames()) {
      const messages = mainSession(name);
      const live = newLiveSession("ses");
      const groupsOf = (_sessionID: string, messages: readonly MessageWithParts[]) => cachedGroups(live, messages);
      for (let count = 1; count <= messages.length; count += 1) {
        const history = [...messages.slice(0, count - 1), streaming(messages[count - 1] as MessageWithParts)];
        expect(groupsOf("ses", reread(history)), `${name}, call with ${count} messages`).toEqual(toInteractionGroups(history));
      }
      expect(groupsOf("ses", reread(messages))).toEqual(toInteractionGroups(messages));
    }
  });

  it("keeps each session's groups apart", () => {
    const [first, second] = fixtureNames().map(mainSession);
    // Each session's memo is on its own live object.
    const sessions = new Map<string, LiveSession>();
    const groupsOf = (sessionID: string, messages: readonly MessageWithParts[]) => {
      const live = sessions.get(sessionID) ?? newLiveSession(sessionID);
      sessions.set(sessionID, live);
      return cachedGroups(live, messages);
    };
    for (const messages of [first, second, first, second])
      expect(groupsOf(messages?.[0]?.info.sessionID ?? "", reread(messages ?? []))).toEqual(toInteractionGroups(messages ?? []));
  });
});
