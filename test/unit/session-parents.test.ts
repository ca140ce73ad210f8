import { describe, expect, it } from "vitest";
import { createSessionParents } from "../../src/plugin/hosts/opencode-1/server/session-parents.js";

const announced = (type: string, id: string, parentID?: string) => ({ type, properties: { info: { id, title: "t", ...(parentID ? { parentID } : {}) } } });

describe("the sessions' parents as OpenCode announces them", () => {
  it("knows a top-level session and a sub-agent's from session.created and session.updated", () => {
    const parents = createSessionParents();
    parents.observe(announced("session.created", "ses_a"));
    parents.observe(announced("session.updated", "ses_b", "ses_a"));
    expect(parents.known("ses_a")).toBeNull();
    expect(parents.known("ses_b")).toBe("ses_a");
  });

  it("knows nothing of a session never announced, nor from other events or malformed ones", () => {
    const parents = createSessionParents();
    parents.observe(announced("message.updated", "ses_a"));
    parents.observe({ type: "session.created", properties: {} });
    parents.observe({ type: "session.created", properties: { info: { id: "" } } });
    parents.observe(null);
    expect(parents.known("ses_a")).toBeUndefined();
    expect(parents.known("")).toBeUndefined();
  });
});
