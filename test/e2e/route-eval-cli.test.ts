import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { runCli } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

// The route-eval command as a user runs it: the CLI's main, in this process, on the bundled sets.
const SET = join(packageRoot(), "fixtures", "routing", "labelled-sessions.jsonl");

describe("opencode-rcm route-eval", () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeAll(async () => {
    temp = await makeTempDir("rcm-route-eval");
  });
  afterAll(async () => {
    await temp.remove();
  });

  it("prints exactly the documented keys with --json", async () => {
    const { stdout } = await runCli(["route-eval", SET, "--json"]);
    const report = JSON.parse(stdout) as Record<string, number>;
    expect(Object.keys(report).slice(0, 6)).toEqual(["n", "accuracy", "fallbackRate", "confidentWrongRate", "newTaskPrecision", "newTaskRecall"]);
    expect(Object.keys(report).slice(6)).toEqual([
      "harmfulConfidentWrongRate",
      "mergeConfidentWrongRate",
      "expectedCalibrationError",
      "confidentAccuracy",
      "modelCalls",
      "relabelled",
      "candidateFallback",
      "byShape",
      "byStyle",
      "narrowedRight",
      "narrowedCalls",
      "byKind",
      "reliability",
    ]);
    expect(report.n).toBeGreaterThanOrEqual(300);
  });

  it("exits 2 naming the line and field of bad input", async () => {
    const file = join(temp.path, "bad.jsonl");
    await writeFile(file, `${JSON.stringify({ id: "s", requests: [{ text: "x", task: "a" }] })}\n{"id": "t", "requests": [{"text": "y"}]}\n`);
    const failure = await runCli(["route-eval", file]);
    expect(failure).toMatchObject({ code: 2, stdout: "" });
    expect(failure.stderr).toContain(`${file}:2: requests.0.task:`);
  });

  it("rejects the model router without an endpoint, naming what is missing", async () => {
    const failure = await runCli(["route-eval", SET, "--router", "model"], { PATH: process.env.PATH ?? "" });
    expect(failure).toMatchObject({ code: 2, stdout: "" });
    expect(failure.stderr).toContain("aux.baseURL");
  });
});

describe("route-eval on the routing corpus", () => {
  it("reads a split directory and draws a reliability diagram that a browser can open", async () => {
    const temp = await makeTempDir("rcm-route-eval-plot");
    const plot = join(temp.path, "reliability.svg");
    const { stdout } = await runCli(["route-eval", join(packageRoot(), "fixtures", "routing-corpus", "dev"), "--plot", plot]);
    expect(stdout).toMatch(/^route-eval: lexical router, threshold 0.8, \d+ sessions, \d+ requests/);
    expect(stdout).toContain("calibration error (ECE)");
    expect(stdout).toMatch(/switch \(\d+ sessions/);
    const svg = await readFile(plot, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<rect class="bin"/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(svg).toContain("expected calibration error");
    await temp.remove();
  });
});
