import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RcmError } from "../../src/kit/errors/rcm-error.js";
import { loadFaithfulPlaybook } from "../../src/lab/bench/agent/faithful-playbook.js";
import { FileProblemsError } from "../../src/lab/bench/agent/file-problems-error.js";
import { loadPlaybook } from "../../src/lab/bench/agent/playbook.js";
import { makeTempDir } from "../support/temp-dir.js";

// A researcher writing agent.json and the faithful/ files by hand gets every problem of a file at
// once, as a suite error (exit status 2) naming the file and the field, never an internal error.

let temp: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir("rcm-formats");
});
afterEach(async () => temp.remove());

const put = async (path: string, text: string) => {
  await mkdir(dirname(join(temp.path, path)), { recursive: true });
  await writeFile(join(temp.path, path), text);
};

/** What the CLI prints for the failure (an RcmError as it is), and with which code and exit status. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; exitCode: number; message: string; field: string | undefined; fields: string[] }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RcmError);
  const printed = error as RcmError;
  const fields = error instanceof FileProblemsError ? error.locations.map((location) => location.field) : [];
  return { code: printed.code, exitCode: printed.exitCode, message: printed.message, field: printed.location?.field, fields };
}

const stages = (a: string, b: string) => ({
  "stage-1": { request: a, writes: { "m.py": "x = 1\n" } },
  "stage-2": { request: b, writes: { "m.py": "x = 2\n" } },
});
const agent = { tasks: { a: { stages: stages("Make x one always", "Make x two now") }, b: { stages: stages("Keep y unset when empty", "Make y two") } } };

async function faithfulSuite(confusions?: unknown): Promise<void> {
  await put("agent.json", JSON.stringify(agent));
  await put("tasks/a/faithful/rules.json", JSON.stringify({ "stage-1": "x one always", "stage-2": "x two now" }));
  await put("tasks/b/faithful/rules.json", JSON.stringify({ "stage-1": "unset when empty", "stage-2": "make y two" }));
  for (const task of ["a", "b"]) await put(`tasks/${task}/faithful/stage-2/without-stage-1/m.py`, "x = 0\n");
  if (confusions !== undefined) await put("tasks/a/faithful/confusions.json", JSON.stringify(confusions));
}

describe("agent.json's problems", () => {
  it("a missing agent.json is a suite error that says what the file is for and that --model needs none", async () => {
    const file = join(temp.path, "agent.json");
    const { code, exitCode, message } = await failure(loadPlaybook(file));
    expect({ code, exitCode }).toEqual({ code: "suite", exitCode: 2 });
    expect(message).toContain(`${file}: (file): not found: --agent scripted and --agent faithful play this file`);
    expect(message).toContain("docs/benchmark-formats.md#agentjson");
    expect(message).toContain("--model");
    expect(message).toContain("bench import-swebench");
  });

  it("lists every problem of the file at once, one line each, the first as the location", async () => {
    const file = join(temp.path, "agent.json");
    await writeFile(
      file,
      JSON.stringify({
        checkCommand: "",
        tasks: { a: { stages: { "stage-1": { request: 3, writes: { "/etc/x": "" } }, "stage-2": { writes: {} } } }, b: { stage: {} } },
        extra: 1,
      }),
    );
    const { code, message, field } = await failure(loadPlaybook(file));
    expect(code).toBe("suite");
    const lines = message.split("\n");
    expect(lines[0]).toBe(`${file}: 8 problems`);
    expect(lines.slice(1, -1).sort()).toEqual(
      [
        "  checkCommand: Too small: expected string to have >=1 characters",
        "  tasks.a.stages.stage-1.request: Invalid input: expected string, received number",
        '  tasks.a.stages.stage-1.writes./etc/x: "/etc/x" must be a relative path inside the workspace',
        "  tasks.a.stages.stage-2.request: Invalid input: expected string, received undefined",
        "  tasks.a.stages.stage-2.writes: at least one file is required",
        "  tasks.b.stages: Invalid input: expected record, received undefined",
        '  tasks.b.stage: unknown field "stage"',
        '  extra: unknown field "extra"',
      ].sort(),
    );
    expect(lines.at(-1)).toBe("  (read by --agent scripted and --agent faithful; the format: docs/benchmark-formats.md#agentjson)");
    expect(field).toBe("checkCommand");
  });

  it("a file that is not JSON is a suite error", async () => {
    const file = join(temp.path, "agent.json");
    await writeFile(file, "{ tasks: ");
    const { code, message } = await failure(loadPlaybook(file));
    expect(code).toBe("suite");
    expect(message).toMatch(new RegExp(`^${file}: \\(file\\): not JSON: `));
  });
});

describe("the faithful/ files' problems", () => {
  it("a missing rules.json says what it is for and what to run instead", async () => {
    await faithfulSuite();
    await put("tasks/b/faithful/rules.json", "");
    const file = join(temp.path, "tasks", "b", "faithful", "rules.json");
    const { code, message } = await failure(loadFaithfulPlaybook(temp.path));
    expect(code).toBe("suite");
    expect(message).toMatch(new RegExp(`^${file}: \\(file\\): not JSON`));
    await rm(file);
    const missing = await failure(loadFaithfulPlaybook(temp.path));
    expect(missing.message).toContain(`${file}: (file): not found: --agent faithful reads every task's faithful/rules.json`);
    expect(missing.message).toContain("--agent scripted or --model");
    expect(missing.message.split("\n")).toHaveLength(1);
  });

  it("rules.json: every stage's problem at once", async () => {
    await faithfulSuite();
    await put("tasks/a/faithful/rules.json", JSON.stringify({ "stage-1": "nowhere", "stage-3": "x", "stage-2": 2 }));
    expect((await failure(loadFaithfulPlaybook(temp.path))).message).toBe(
      `${join(temp.path, "tasks", "a", "faithful", "rules.json")}: stage-2: Invalid input: expected string, received number\n  (read by --agent faithful; the format: docs/benchmark-formats.md#faithfulrulesjson)`,
    );
    await put("tasks/a/faithful/rules.json", JSON.stringify({ "stage-1": "nowhere", "stage-3": "x" }));
    const { message } = await failure(loadFaithfulPlaybook(temp.path));
    expect(message.split("\n").slice(1, -1)).toEqual([
      '  stage-1: "nowhere" is not in the stage\'s request (compared lower-cased, without backticks, whitespace collapsed)',
      "  stage-2: missing: every stage needs the phrase that states its requirement",
      "  stage-3: no such stage in agent.json's a",
    ]);
  });

  it("confusions.json: every field of every entry at once, then every entry against agent.json", async () => {
    await faithfulSuite([{ stage: "stage-2", with: "b-stage-1" }, { with: "b/stage-1", shared: "", also: true }, "x"]);
    const file = join(temp.path, "tasks", "a", "faithful", "confusions.json");
    const shape = await failure(loadFaithfulPlaybook(temp.path));
    expect(shape.code).toBe("suite");
    expect(shape.message.split("\n")).toEqual([
      `${file}: 6 problems`,
      "  0.with: must be <task>/<stage>",
      "  0.shared: Invalid input: expected string, received undefined",
      "  1.stage: Invalid input: expected string, received undefined",
      "  1.shared: Too small: expected string to have >=1 characters",
      '  1.also: unknown field "also"',
      "  2: Invalid input: expected object, received string",
      "  (read by --agent faithful; the format: docs/benchmark-formats.md#faithfulconfusionsjson)",
    ]);
    expect(shape.fields).toEqual(["0.with", "0.shared", "1.stage", "1.shared", "1.also", "2"]);
    await faithfulSuite([
      { stage: "stage-3", with: "b/stage-1", shared: "make" },
      { stage: "stage-2", with: "a/stage-1", shared: "make" },
      { stage: "stage-2", with: "c/stage-1", shared: "empty" },
      { stage: "stage-2", with: "b/stage-1", shared: "unset" },
    ]);
    const meaning = await failure(loadFaithfulPlaybook(temp.path));
    expect(meaning.message.split("\n").slice(0, -1)).toEqual([
      `${file}: 5 problems`,
      '  0.stage: "stage-3" is no stage of a in agent.json',
      '  1.with: "a/stage-1" is this task\'s own stage',
      '  2.with: "c/stage-1" is no stage of agent.json',
      '  2.shared: "empty" is in no request of a: confusable tasks share the word',
      '  3.shared: "unset" is in no request of a: confusable tasks share the word',
    ]);
  });

  it("the variant folders: every missing, unexpected or mismatched folder of a task at once", async () => {
    await faithfulSuite([{ stage: "stage-2", with: "b/stage-1", shared: "make" }]);
    await put("tasks/a/faithful/stage-2/without-stage-1/n.py", "");
    await put("tasks/a/faithful/stage-2/without-stage-3/m.py", "");
    const { code, message } = await failure(loadFaithfulPlaybook(temp.path));
    expect(code).toBe("suite");
    expect(message.split("\n").slice(0, -1)).toEqual([
      `${join(temp.path, "tasks", "a", "faithful")}: 3 problems`,
      "  stage-2/without-stage-3: not a variant of stage-2: expected one of without-stage-1, with-b.stage-1",
      "  stage-2/without-stage-1: holds m.py, n.py; the stage writes m.py",
      "  stage-2/with-b.stage-1: missing: the files written at stage-2 when b/stage-1's requirement leaks in",
    ]);
  });
});
