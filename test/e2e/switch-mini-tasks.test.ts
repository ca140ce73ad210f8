import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { scoreTask } from "../../src/lab/bench/score/index.js";
import { loadSuite } from "../../src/lab/bench/suite/load-suite.js";
import type { Suite, Task } from "../../src/lab/bench/suite/schema.js";
import { makeTempDir } from "../support/temp-dir.js";

const DIR = join(packageRoot(), "fixtures", "switch-mini");
let suite: Suite;
let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  suite = await loadSuite(DIR);
  temp = await makeTempDir("rcm-switch-mini-tasks");
});
afterAll(async () => {
  await temp?.remove();
});

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  return results;
}

describe("every task of the mini suite, under the real scorer and real pytest", () => {
  it("is resolved by its reference patch and not by the unpatched base", async () => {
    const score = (task: Task, patch: string | null, name: string) =>
      scoreTask({
        task,
        repoSource: resolve(DIR, task.repo_bundle as string),
        patch,
        workDir: join(temp.path, `${task.instance_id}-${name}`),
        timeoutMs: 120_000,
      });
    const outcomes = await inBatches(suite.tasks, 4, async (task) => {
      const reference = await score(task, task.patch, "reference");
      const base = await score(task, null, "base");
      return { id: task.instance_id, reference: reference.resolved, base: base.resolved, baseF2P: base.tests_status.FAIL_TO_PASS.success.length };
    });
    expect(outcomes).toHaveLength(suite.tasks.length);
    for (const outcome of outcomes) expect(outcome).toEqual({ id: outcome.id, reference: true, base: false, baseF2P: 0 });
  }, 300_000);
});
