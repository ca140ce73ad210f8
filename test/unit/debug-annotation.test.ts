import { describe, expect, it } from "vitest";
import { buildCallView } from "../../src/plugin/core/context/call-view.js";
import { applyPlan, EMPTY_PLAN } from "../../src/plugin/core/context/context-plan.js";
import { annotateForDebug, renderDebugAnnotation } from "../../src/plugin/core/context/debug-annotation.js";
import { toInteractionGroups } from "../../src/plugin/core/interaction-groups.js";
import { emptyLedger } from "../../src/plugin/core/routing/ledger.js";
import { mainSession } from "../support/fixtures.js";

describe("debug annotation", () => {
  it("summarises mode, message count and group kinds in a stable order", () => {
    const messages = mainSession("compaction");
    const text = renderDebugAnnotation({ mode: "full", groups: toInteractionGroups(messages), messageCount: messages.length });
    expect(text).toBe(`[opencode-rcm debug] mode=full messages=${messages.length} groups=4 (compaction=1 request=3)`);
  });

  it("adds a synthetic part to the last user message only, leaving the input untouched", () => {
    const messages = mainSession("two-tasks-with-tool-error");
    const before = JSON.stringify(messages);
    const next = applyPlan(messages, annotateForDebug({ view: buildCallView({ messages, ledger: emptyLedger() }), plan: EMPTY_PLAN, text: "note" }));
    expect(JSON.stringify(messages)).toBe(before);
    const lastUser = next.findLastIndex((message) => message.info.role === "user");
    expect(next[lastUser]?.parts.at(-1)).toMatchObject({ type: "text", text: "note", synthetic: true });
    next.forEach((message, index) => {
      if (index !== lastUser) expect(message).toBe(messages[index]);
    });
  });
});
