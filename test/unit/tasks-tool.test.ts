import { type ToolContext, tool } from "@opencode-ai/plugin";
import { describe, expect, it } from "vitest";
import { RECORD_VERSION, type TaskRecord } from "../../src/plugin/core/memory/record.js";
import { renderRecord } from "../../src/plugin/core/memory/render-record.js";
import { createTasksAnswer } from "../../src/plugin/handlers/tasks-answer.js";
import { createTasksTool } from "../../src/plugin/hosts/opencode-1/server/tasks-tool.js";
import type { SessionStore } from "../../src/plugin/sessions/session-store.js";
import { fixedStore, ledgerOf, stateOf } from "../support/routing.js";

const ledger = ledgerOf([
  ["msg_a1", "new:slugify"],
  ["msg_b1", "new:changelog"],
  ["msg_a2", "t1"],
]);
const record: TaskRecord = {
  version: RECORD_VERSION,
  task: "t1",
  goal: "Add textkit/slugify.py with a slugify(text) function",
  constraints: [{ id: "c1", text: "Keep unicode letters instead of dropping them.", sources: ["msg_a2"] }],
  progress: [{ text: "Wrote textkit/slugify.py", sources: ["call_0_0"] }],
  pending: [],
  files: ["textkit/slugify.py"],
  uncertainties: [],
  coverage: { through: "msg_a2", groups: ["msg_a1", "msg_a2"] },
  lastUpdate: { updater: "extractive", groups: 2, notes: [] },
};
const store: SessionStore = fixedStore({ ses_main: stateOf("ses_main", ledger, { t1: record }) });

function contextFor(sessionID: string): ToolContext {
  return {
    sessionID,
    messageID: "msg_call",
    agent: "build",
    directory: "/work",
    worktree: "/work",
    abort: new AbortController().signal,
    metadata: () => undefined,
    ask: async () => undefined,
  };
}

const tasksTool = createTasksTool(createTasksAnswer({ store, recordTokens: 1500 }));
const run = (args: unknown, sessionID = "ses_main") => tasksTool.execute(args as never, contextFor(sessionID));

describe("the rcm_tasks tool", () => {
  it("lists the session's tasks with their status and goal", async () => {
    const output = await run({ action: "list" });
    expect(output).toBe(
      ["t1 [current] slugify", "  goal: Add textkit/slugify.py with a slugify(text) function", "t2 [suspended] changelog", "  goal: (no record yet)"].join(
        "\n",
      ),
    );
  });

  it("shows a task's record as rendered for the model", async () => {
    const output = await run({ action: "show", task: "t1" });
    expect(output).toBe(renderRecord(record, { title: "slugify", maxTokens: 1500 }));
    expect(output).toContain("Keep unicode letters instead of dropping them.");
    expect(await run({ action: "show", task: "t2" })).toMatch(/^t2: changelog\nNo memory record yet/);
  });

  it("names the known tasks when asked for an unknown one", async () => {
    await expect(run({ action: "show", task: "t9" })).rejects.toThrow('no task "t9" in this session (tasks: t1, t2)');
  });

  it("says it does not track sub-agent sessions", async () => {
    expect(await run({ action: "list" }, "ses_child")).toBe("opencode-rcm does not track tasks in sub-agent sessions.");
  });

  it.each([
    { args: { action: "delete" }, field: "action" },
    { args: { action: "show" }, field: "task: show needs a task id" },
    { args: { action: "show", task: "x" }, field: "task" },
    { args: {}, field: "action" },
    { args: { action: "list", force: true }, field: "(arguments)" },
  ])("rejects invalid arguments $args, naming the field", async ({ args, field }) => {
    await expect(run(args)).rejects.toThrow(`rcm_tasks: invalid arguments: ${field}`);
  });

  it("declares its arguments as zod schemas from tool.schema", () => {
    const { action, task } = tasksTool.args as Record<string, unknown>;
    expect(action).toBeInstanceOf(tool.schema.ZodType);
    expect(task).toBeInstanceOf(tool.schema.ZodType);
    const actionSchema = action as InstanceType<typeof tool.schema.ZodType>;
    const taskSchema = task as InstanceType<typeof tool.schema.ZodType>;
    expect(typeof actionSchema.safeParse).toBe("function");
    expect(actionSchema.safeParse("list").success).toBe(true);
    expect(actionSchema.safeParse("show").success).toBe(true);
    expect(actionSchema.safeParse("delete").success).toBe(false);
    expect(taskSchema.safeParse("t2").success).toBe(true);
    expect(taskSchema.safeParse(undefined).success).toBe(true);
    expect(taskSchema.safeParse("x").success).toBe(false);
  });
});
