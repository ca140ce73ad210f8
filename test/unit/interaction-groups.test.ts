import { describe, expect, it } from "vitest";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { fixtureNames, loadFixture, mainSession } from "../support/fixtures.js";

describe("toInteractionGroups", () => {
  it("puts every message of every recorded session in exactly one group, in order", () => {
    for (const name of fixtureNames()) {
      for (const messages of Object.values(loadFixture(name).sessions)) {
        const indices = toInteractionGroups(messages).flatMap((group) => group.indices);
        expect(indices, name).toEqual(messages.map((_, index) => index));
      }
    }
  });

  it("groups a request with the assistant steps whose parentID is it, tool calls included", () => {
    const messages = mainSession("two-tasks-with-tool-error");
    const groups = toInteractionGroups(messages);
    expect(groups.map((group) => group.kind)).toEqual(["request", "request", "request"]);
    expect(groups.map((group) => group.indices.length)).toEqual([4, 3, 5]);
    expect(groups[0]?.requestText).toMatch(/^Task A: add textkit\/slugify\.py/);
    expect(groups[0]?.toolCalls.map((call) => call.tool)).toEqual(["write", "bash"]);
    expect(groups[2]?.toolCalls.map((call) => `${call.tool}:${call.status}`)).toEqual(["edit:error", "edit:completed", "bash:completed"]);
    expect(groups[2]?.toolCalls[1]?.input.filePath).toMatch(/textkit\/slugify\.py$/);
  });

  it("keeps the compaction marker and its summary together as one compaction group", () => {
    const messages = mainSession("compaction");
    const groups = toInteractionGroups(messages);
    expect(groups.map((group) => group.kind)).toEqual(["request", "request", "compaction", "request"]);
    const compaction = groups[2];
    expect(compaction?.indices.map((index) => messages[index]?.info.role)).toEqual(["user", "assistant"]);
    expect(compaction?.requestText).toBe("");
  });

  it("reads the history OpenCode hands the model after an automatic compaction", () => {
    const { transformCalls } = loadFixture("auto-compaction");
    // The first call after compaction: marker + summary, the verbatim tail (an assistant
    // step whose request was summarized away), then OpenCode's synthetic "continue".
    const afterCompaction = transformCalls.find((call) => call[0]?.parts.some((part) => part.type === "compaction"));
    expect(afterCompaction).toBeDefined();
    const groups = toInteractionGroups(afterCompaction ?? []);
    expect(groups.map((group) => group.kind)).toEqual(["compaction", "orphan", "continuation"]);
    expect(groups[2]?.requestText).toBe("");
  });

  it("marks a group whose step was aborted, and keeps the aborted step in it", () => {
    const groups = toInteractionGroups(mainSession("aborted"));
    expect(groups.map((group) => group.aborted)).toEqual([true, false]);
    expect(groups[0]?.indices).toHaveLength(2);
    expect(groups[0]?.errors).toEqual([]);
  });

  it("records the error name of an assistant step that failed at the provider", () => {
    const groups = toInteractionGroups(mainSession("provider-error"));
    expect(groups[0]?.errors).toEqual(["APIError"]);
    expect(groups[0]?.aborted).toBe(false);
    expect(groups[1]?.errors).toEqual([]);
  });

  it("links a group to the sub-agent session its task tool started", () => {
    const fixture = loadFixture("subagent");
    const [group] = toInteractionGroups(fixture.sessions.main ?? []);
    const child = fixture.sessions.child1 ?? [];
    expect(group?.subagentSessionIDs).toEqual([child[0]?.info.sessionID]);
    const childGroups = toInteractionGroups(child);
    expect(childGroups).toHaveLength(1);
    expect(childGroups[0]?.requestText).toContain("List every caller of wrap(");
  });

  it("gathers assistant steps whose request was cut away (after compaction) into an orphan group", () => {
    const messages = mainSession("two-tasks-with-tool-error").slice(1);
    const groups = toInteractionGroups(messages);
    expect(groups[0]?.kind).toBe("orphan");
    expect(groups[0]?.indices).toEqual([0, 1, 2]);
    expect(groups[0]?.id).toBe(`orphan:${messages[0]?.info.role === "assistant" ? messages[0].info.parentID : ""}`);
  });

  it("does not modify the messages it is given", () => {
    const messages = mainSession("compaction");
    const before = JSON.stringify(messages);
    toInteractionGroups(messages);
    expect(JSON.stringify(messages)).toBe(before);
  });
});
