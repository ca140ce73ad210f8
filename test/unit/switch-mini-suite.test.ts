import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { loadPlaybook } from "../../src/lab/bench/agent/playbook.js";
import { loadSuite } from "../../src/lab/bench/suite/load-suite.js";
import { FINALIZE, type Suite } from "../../src/lab/bench/suite/schema.js";

const DIR = join(packageRoot(), "fixtures", "switch-mini");
let suite: Suite;
beforeAll(async () => {
  suite = await loadSuite(DIR);
});

describe("the bundled mini suite", () => {
  it("has at least 3 repositories and 15 tasks of 2 to 4 stages, each with tests and a reference patch", () => {
    expect(new Set(suite.tasks.map((task) => task.repo)).size).toBeGreaterThanOrEqual(3);
    expect(suite.tasks.length).toBeGreaterThanOrEqual(15);
    for (const task of suite.tasks) {
      expect(task.stages.length).toBeGreaterThanOrEqual(2);
      expect(task.stages.length).toBeLessThanOrEqual(4);
      expect(task.FAIL_TO_PASS.length).toBeGreaterThan(0);
      expect(task.PASS_TO_PASS.length).toBeGreaterThan(0);
      expect(task.patch).toMatch(/^diff --git /);
      expect(task.test_patch).toMatch(/^diff --git a\/tests\//);
    }
  });

  it("runs every task uninterrupted and switched with four interruptions of its own repository, near and far", () => {
    for (const task of suite.tasks) {
      const own = suite.sessions.filter((session) => session.focus === task.instance_id);
      expect(own.map((session) => session.condition).sort()).toEqual(["switched", "uninterrupted"]);
      const switched = own.find((session) => session.condition === "switched");
      expect(switched?.interruptions).toHaveLength(4);
      for (const other of switched?.interruptions ?? []) {
        expect(suite.tasks.find((candidate) => candidate.instance_id === other)?.repo).toBe(task.repo);
      }
      expect(switched?.schedule.at(-1)).toEqual({ task: task.instance_id, stage: FINALIZE });
    }
    expect(new Set(suite.sessions.map((session) => session.locality))).toEqual(new Set(["near", "far"]));
  });

  it("comes with a scripted-agent playbook that recognises every stage request", async () => {
    const playbook = await loadPlaybook(join(DIR, "agent.json"));
    for (const task of suite.tasks) {
      for (const stage of task.stages) expect(playbook.tasks[task.instance_id]?.stages[stage.id]?.request).toBe(stage.request);
    }
  });
});
