import { cp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { cheapSuiteProblems } from "../../src/lab/bench/check/cheap-suite-problems.js";
import { describeProblem } from "../../src/lab/bench/check/suite-problem.js";
import { loadSuite } from "../../src/lab/bench/suite/load-suite.js";
import { makeTempDir } from "../support/temp-dir.js";

const MINI = join(packageRoot(), "fixtures", "switch-mini");
const TASK = "minicfg__minicfg-1";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let suiteDir: string;

beforeEach(async () => {
  temp = await makeTempDir("rcm-bench-check");
  suiteDir = join(temp.path, "switch-mini");
  await cp(MINI, suiteDir, { recursive: true });
});
afterEach(async () => {
  await temp.remove();
});

async function problems(): Promise<string[]> {
  return (await cheapSuiteProblems(await loadSuite(suiteDir))).map(describeProblem);
}

interface TaskFile {
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
}
interface SessionLine {
  session_id: string;
  locality: string;
}
interface PlaybookFile {
  tasks: Record<string, { stages: Record<string, { request: string }> }>;
}

async function editJson<T>(path: string, edit: (value: T) => void): Promise<void> {
  const value = JSON.parse(await readFile(path, "utf8")) as T;
  edit(value);
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

async function editLines(path: string, edit: (lines: SessionLine[]) => void): Promise<void> {
  const lines = (await readFile(path, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as SessionLine);
  edit(lines);
  await writeFile(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
}

describe("the cheap suite check", () => {
  it("finds nothing wrong with the bundled mini suite", async () => {
    expect(await problems()).toEqual([]);
  });

  it("names a FAIL_TO_PASS id whose file the test command does not run", async () => {
    const file = join(suiteDir, "tasks", TASK, "task.json");
    await editJson<TaskFile>(file, (task) => {
      task.FAIL_TO_PASS[1] = "tests/test_flags.py::test_only_the_literal_true_default_is_special";
    });
    expect(await problems()).toEqual([
      `${file}: FAIL_TO_PASS.1: "tests/test_flags.py::test_only_the_literal_true_default_is_special": the test command does not run tests/test_flags.py (it runs tests/test_existing.py tests/test_flag.py), so this test can never pass`,
    ]);
  });

  it("names a test listed both as FAIL_TO_PASS and PASS_TO_PASS", async () => {
    const file = join(suiteDir, "tasks", TASK, "task.json");
    await editJson<TaskFile>(file, (task) => {
      task.PASS_TO_PASS.push(task.FAIL_TO_PASS[0] as string);
    });
    expect(await problems()).toEqual([
      expect.stringMatching(new RegExp(`^${file}: PASS_TO_PASS\\.8: ".+" is also FAIL_TO_PASS\\.0: a test cannot both fail and pass before the patch$`)),
    ]);
  });

  it("names a session whose locality is not the definition's, and the uninterrupted twin that follows it", async () => {
    const file = join(suiteDir, "sessions.jsonl");
    await editLines(file, (lines) => {
      const switched = lines.find((line) => line.session_id === `${TASK}__switched`);
      if (switched) switched.locality = "far";
      const far = lines.find((line) => line.session_id === "minicfg__minicfg-5__uninterrupted");
      if (far) far.locality = "near";
    });
    expect(await problems()).toEqual([
      `${file}:2: locality: "far" but the definition gives "near": minicfg__minicfg-2 changes a file in minicfg/options/, as the focus does`,
      `${file}:9: locality: "near" but the definition gives "far": its switched twin minicfg__minicfg-5__switched is far by the definition (an uninterrupted session carries its twin's locality)`,
    ]);
  });

  it("names an agent.json request that differs from the stage's, showing both around the difference", async () => {
    const file = join(suiteDir, "agent.json");
    const playbook = JSON.parse(await readFile(file, "utf8")) as PlaybookFile;
    const stage = playbook.tasks[TASK]?.stages["stage-2"];
    if (stage === undefined) throw new Error("fixture changed");
    stage.request = stage.request.replace(" ", "  ");
    await writeFile(file, `${JSON.stringify(playbook, null, 2)}\n`);
    const found = await problems();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      new RegExp(
        `^${file}:\\d+: tasks\\.${TASK}\\.stages\\.stage-2\\.request: differs from ${join(suiteDir, "tasks", TASK, "stage-2.md")}: agent\\.json has ".+", the suite ".+"; the scripted agents would write nothing at this stage$`,
      ),
    );
    const line = Number(/agent\.json:(\d+):/.exec(found[0] ?? "")?.[1]);
    expect((await readFile(file, "utf8")).split("\n")[line - 1]).toContain('"request"');
  });

  it("names agent.json's unknown task and the suite's task it lacks", async () => {
    const file = join(suiteDir, "agent.json");
    await editJson<PlaybookFile>(file, (playbook) => {
      playbook.tasks["nobody__nothing-1"] = playbook.tasks[TASK] as PlaybookFile["tasks"][string];
      delete playbook.tasks[TASK];
    });
    const found = await problems();
    expect(found).toContainEqual(
      expect.stringMatching(new RegExp(`^${file}:\\d+: tasks\\.${TASK}: missing: the suite has this task; the scripted agents would write nothing for it$`)),
    );
    expect(found).toContainEqual(expect.stringMatching(new RegExp(`^${file}:\\d+: tasks\\.nobody__nothing-1: no such task in the suite \\(unused\\)$`)));
  });

  it("names a faithful variant folder that is missing and a confusion with an unknown stage", async () => {
    const variant = join(suiteDir, "tasks", TASK, "faithful", "stage-2", "without-stage-1");
    await rm(variant, { recursive: true });
    const confusions = join(suiteDir, "tasks", "minicfg__minicfg-4", "faithful", "confusions.json");
    await writeFile(confusions, JSON.stringify([{ stage: "stage-3", with: "minicfg__minicfg-3/stage-9", shared: "unset" }]));
    expect(await problems()).toEqual([
      `${variant}: (folder): missing: the files the faithful agent writes at stage-2 when stage-1 is out of view`,
      `${confusions}: 0.with: "minicfg__minicfg-3/stage-9" is no <task>/<stage> of the suite`,
      `${join(suiteDir, "tasks", "minicfg__minicfg-4", "faithful", "stage-3", "with-minicfg__minicfg-3.stage-3")}: (folder): not a variant of stage-3: expected one of without-stage-1, without-stage-2, without-stage-1+stage-2, with-minicfg__minicfg-3.stage-9`,
      `${join(suiteDir, "tasks", "minicfg__minicfg-4", "faithful", "stage-3", "with-minicfg__minicfg-3.stage-9")}: (folder): missing: the files the faithful agent writes at stage-3 when minicfg__minicfg-3/stage-9's requirement leaks in`,
    ]);
  });

  it("names a rules.json phrase that is not in its stage's request", async () => {
    const file = join(suiteDir, "tasks", TASK, "faithful", "rules.json");
    await editJson<Record<string, string>>(file, (rules) => {
      rules["stage-3"] = "no such stage";
      rules["stage-1"] = "words nobody wrote";
    });
    expect(await problems()).toEqual([
      `${file}: stage-3: no such stage of ${TASK}`,
      `${file}: stage-1: "words nobody wrote" is not in the stage's request (compared lower-cased, without backticks, whitespace collapsed)`,
    ]);
  });

  it("collects every problem at once, not the first only", async () => {
    await editJson<TaskFile>(join(suiteDir, "tasks", TASK, "task.json"), (task) => {
      task.FAIL_TO_PASS[0] = "tests/test_flgs.py::test_x";
    });
    await editLines(join(suiteDir, "sessions.jsonl"), (lines) => {
      const switched = lines.find((line) => line.session_id === `${TASK}__switched`);
      if (switched) switched.locality = "far";
    });
    await editJson<PlaybookFile>(join(suiteDir, "agent.json"), (playbook) => {
      const stage = playbook.tasks["minidate__minidate-2"]?.stages["stage-1"];
      if (stage) stage.request += " Please.";
    });
    await rm(join(suiteDir, "tasks", "minicsv__minicsv-1", "faithful", "stage-3", "without-stage-2"), { recursive: true });
    const found = await problems();
    expect(found.map((line) => /: ((?:[\w.-]+|\(folder\))): /.exec(line.slice(suiteDir.length))?.[1])).toEqual([
      "FAIL_TO_PASS.0",
      "locality",
      "tasks.minidate__minidate-2.stages.stage-1.request",
      "(folder)",
    ]);
  });
});

describe("the cheap suite check for one agent", () => {
  it("checks only the files the agent reads", async () => {
    await editJson<PlaybookFile>(join(suiteDir, "agent.json"), (playbook) => {
      const stage = playbook.tasks[TASK]?.stages["stage-1"];
      if (stage) stage.request += " Please.";
    });
    await rm(join(suiteDir, "tasks", TASK, "faithful", "rules.json"));
    const suite = await loadSuite(suiteDir);
    expect(await cheapSuiteProblems(suite, { agent: "model" })).toEqual([]);
    expect((await cheapSuiteProblems(suite, { agent: "scripted" })).map((problem) => problem.field)).toEqual([`tasks.${TASK}.stages.stage-1.request`]);
    expect((await cheapSuiteProblems(suite, { agent: "faithful" })).map((problem) => problem.field)).toEqual([
      `tasks.${TASK}.stages.stage-1.request`,
      "(file)",
    ]);
  });

  it("names a missing agent.json for the scripted agents only", async () => {
    await rm(join(suiteDir, "agent.json"));
    const suite = await loadSuite(suiteDir);
    expect(await cheapSuiteProblems(suite, { agent: "model" })).toEqual([]);
    expect((await cheapSuiteProblems(suite, { agent: "scripted" })).map(describeProblem)).toEqual([
      `${join(suiteDir, "agent.json")}: (file): missing: --agent scripted plays the suite's agent.json`,
    ]);
  });
});
