import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_SCHEMAS_DIR, renderBenchJsonSchemas } from "../../src/dev/schemas/bench-json-schemas.js";
import { withResultFieldTable } from "../../src/dev/schemas/result-field-table.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { loadFaithfulPlaybook } from "../../src/lab/bench/agent/faithful-playbook.js";
import { loadPlaybook } from "../../src/lab/bench/agent/playbook.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { loadSuite, loadTasks } from "../../src/lab/bench/suite/load-suite.js";
import type { Suite } from "../../src/lab/bench/suite/schema.js";
import { makeTempDir } from "../support/temp-dir.js";

// docs/benchmark-formats.md and schemas/ are what a researcher writes a suite from: the schemas
// are the ones the zod schemas give now, and the document's examples load as bench run loads them.

const DOC = join(packageRoot(), "docs", "benchmark-formats.md");

/** The fenced blocks tagged with a path (```json agent.json), by path. */
function examples(doc: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const [, path, text] of doc.matchAll(/^```\w+ (\S+)\n([\s\S]*?)^```$/gm)) {
    if (path === undefined || text === undefined) continue;
    expect(blocks.has(path), `${path} is shown twice`).toBe(false);
    blocks.set(path, text);
  }
  return blocks;
}

/** GitHub's anchors of the document's headings. */
function anchors(doc: string): Set<string> {
  return new Set(
    [...doc.matchAll(/^#+ (.+)$/gm)].map(([, heading = ""]) =>
      heading
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, "")
        .replace(/ /g, "-"),
    ),
  );
}

describe("the published JSON schemas of the bench's files", () => {
  it("are the ones generated from the zod schemas (run npm run schema after changing one)", async () => {
    const generated = renderBenchJsonSchemas();
    const dir = join(packageRoot(), BENCH_SCHEMAS_DIR);
    expect((await readdir(dir)).sort()).toEqual(generated.map(({ file }) => file).sort());
    for (const { file, text } of generated) expect(await readFile(join(dir, file), "utf8"), file).toBe(text);
  });

  it("cover every suite file and a results.jsonl line, each pointing at its section of the document", async () => {
    const doc = await readFile(DOC, "utf8");
    const sections = anchors(doc);
    const generated = renderBenchJsonSchemas().map(({ file, text }) => ({ file, schema: JSON.parse(text) as { description: string; properties: object } }));
    expect(generated.map(({ file }) => file)).toEqual([
      "suite.schema.json",
      "task.schema.json",
      "task-line.schema.json",
      "session.schema.json",
      "agent.schema.json",
      "faithful-rules.schema.json",
      "faithful-confusions.schema.json",
      "result-line.schema.json",
    ]);
    for (const { file, schema } of generated) {
      const anchor = /See docs\/benchmark-formats\.md#(\S+)\.$/.exec(schema.description)?.[1];
      expect(anchor !== undefined && sections.has(anchor), `${file}'s section "${anchor}"`).toBe(true);
    }
  });

  it("task.json's schema has the loader's fields and constraints", () => {
    const task = JSON.parse(renderBenchJsonSchemas().find(({ file }) => file === "task.schema.json")?.text ?? "{}");
    expect(Object.keys(task.properties)).not.toContain("patch");
    expect(task.properties.stage_ids.type).toBe("array");
    expect(task.properties.base_commit.pattern).toBe("^[0-9a-f]{7,40}$");
    expect(task.properties.FAIL_TO_PASS.minItems).toBe(1);
    expect(task.additionalProperties).toBe(false);
  });

  it("the errors' pointers into the document name sections it has", async () => {
    const sections = anchors(await readFile(DOC, "utf8"));
    for (const anchor of ["agentjson", "faithfulrulesjson", "faithfulconfusionsjson", "variant-folders", "task-folders", "sessionsjsonl", "resultsjsonl"]) {
      expect(sections.has(anchor), anchor).toBe(true);
    }
  });
});

describe("docs/benchmark-formats.md", () => {
  let doc: string;
  let blocks: Map<string, string>;
  let temp: { path: string; remove: () => Promise<void> };
  let suite: Suite;
  beforeAll(async () => {
    doc = await readFile(DOC, "utf8");
    blocks = examples(doc);
    temp = await makeTempDir("rcm-formats-doc");
    for (const [path, text] of blocks) {
      if (path === "tasks.jsonl" || path === "results.jsonl") continue;
      await mkdir(dirname(join(temp.path, "suite", path)), { recursive: true });
      await writeFile(join(temp.path, "suite", path), text);
    }
    suite = await loadSuite(join(temp.path, "suite"));
  });
  afterAll(async () => temp.remove());

  it("has the results.jsonl field table the line's schema gives now (run npm run schema after changing it)", () => {
    expect(doc).toBe(withResultFieldTable(doc));
  });

  it("shows every file of a suite, and its examples load as a suite", () => {
    expect([...blocks.keys()].filter((path) => !path.startsWith("tasks/")).sort()).toEqual([
      "agent.json",
      "results.jsonl",
      "sessions.jsonl",
      "suite.json",
      "tasks.jsonl",
    ]);
    expect(suite.meta.name).toBe("calc-example");
    expect(suite.tasks.map((task) => [task.instance_id, task.stages.map((stage) => stage.id)])).toEqual([
      ["acme__calc-1", ["stage-1", "stage-2"]],
      ["acme__calc-2", ["stage-1"]],
    ]);
    expect(suite.sessions.map((session) => session.condition)).toEqual(["uninterrupted", "switched"]);
  });

  it("its agent.json plays every stage of the suite, word for word", async () => {
    const playbook = await loadPlaybook(join(suite.dir, "agent.json"));
    for (const task of suite.tasks) {
      const stages = playbook.tasks[task.instance_id]?.stages ?? {};
      expect(Object.entries(stages).map(([id, stage]) => ({ id, request: stage.request }))).toEqual(task.stages);
    }
  });

  it("its faithful/ files load, with the variant and the confusion", async () => {
    const faithful = await loadFaithfulPlaybook(suite.dir);
    const [first, second] = [faithful.tasks.get("acme__calc-1"), faithful.tasks.get("acme__calc-2")];
    expect([...(first?.stages[1]?.without.keys() ?? [])]).toEqual(["stage-1"]);
    expect(second?.stages[0]?.confusions.map((confusion) => [confusion.with, confusion.rule])).toEqual([["acme__calc-1/stage-2", "add() must return 0"]]);
  });

  it("its legacy tasks.jsonl line is the second task's folder inline", async () => {
    const legacy = join(temp.path, "legacy");
    await mkdir(legacy, { recursive: true });
    await writeFile(join(legacy, "tasks.jsonl"), blocks.get("tasks.jsonl") ?? "");
    expect(await loadTasks(legacy)).toEqual([suite.tasks[1]]);
  });

  it("its results.jsonl line is a valid line", () => {
    expect(() => ResultLineSchema.parse(JSON.parse(blocks.get("results.jsonl") ?? ""))).not.toThrow();
  });
});
