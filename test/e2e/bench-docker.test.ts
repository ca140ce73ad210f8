import { execFile, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { labelledContainers } from "../../src/lab/bench/env/docker.js";
import { type ResultLine, ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const CLI = join(packageRoot(), "dist", "cli.js");
const SUITE = join(packageRoot(), "fixtures", "bench-small");
// Built by scripts/docker-test-image.sh (run by scripts/setup.sh): Debian with python3, pytest, git, patch.
const IMAGE = process.env.RCM_TEST_IMAGE ?? "opencode-rcm-test:bookworm";
const bench = (args: readonly string[]) => run(process.execPath, [CLI, "bench", ...args], { maxBuffer: 20 * 1024 * 1024, timeout: 600_000 });

async function results(out: string): Promise<ResultLine[]> {
  const text = await readFile(join(out, "results.jsonl"), "utf8").catch(() => "");
  return text.trim() === ""
    ? []
    : text
        .trim()
        .split("\n")
        .map((line) => ResultLineSchema.parse(JSON.parse(line)));
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-docker");
  expect(await labelledContainers()).toEqual([]);
});
afterAll(async () => {
  await temp?.remove();
});

describe("bench run --env docker, in a real Docker daemon", () => {
  it("runs and scores sessions in containers of the task's image with the same results as locally, and leaves no container", async () => {
    // A session in a container costs two container starts (the session, then scoring in a fresh one), each a copy of the
    // image under the vfs driver: one session in mode full keeps CI short (the interrupted run below adds native).
    const common = ["--suite", SUITE, "--agent", "scripted", "--modes", "full", "--sessions", "1", "--budget-s", "120"];
    const started = Date.now();
    await bench(["run", ...common, "--out", join(temp.path, "docker"), "--env", "docker", "--image", IMAGE]);
    const dockerMs = Date.now() - started;
    expect(await labelledContainers()).toEqual([]);
    await bench(["run", ...common, "--out", join(temp.path, "local")]);
    const localMs = Date.now() - started - dockerMs;
    const key = (line: ResultLine) => `${line.mode} ${line.session_id}`;
    const inDocker = (await results(join(temp.path, "docker"))).map((line) => [key(line), line.resolved, line.failure_class]).sort();
    const local = (await results(join(temp.path, "local"))).map((line) => [key(line), line.resolved, line.failure_class]).sort();
    expect(inDocker).toHaveLength(1);
    expect(inDocker).toEqual(local);
    // Scored by the image's own Python (Debian's pytest 7), not the host's.
    const line = (await results(join(temp.path, "docker")))[0] as ResultLine;
    const report = JSON.parse(await readFile(join(temp.path, "docker", "sessions", line.session_id, line.mode, "report.json"), "utf8"));
    expect(report[line.focus].test_output_tail).toMatch(/platform linux -- Python 3\.11\.\d+, pytest-7\./);
    console.log(`bench-small, 1 session x full: --env docker ${(dockerMs / 1000).toFixed(1)} s, --env local ${(localMs / 1000).toFixed(1)} s`);
  }, 600_000);

  it("removes its containers when interrupted with Ctrl-C, and a rerun resumes", async () => {
    const out = join(temp.path, "interrupted");
    const args = [
      CLI,
      "bench",
      "run",
      "--suite",
      SUITE,
      "--agent",
      "scripted",
      "--modes",
      "native",
      "--sessions",
      "1",
      "--budget-s",
      "120",
      "--out",
      out,
      "--env",
      "docker",
      "--image",
      IMAGE,
    ];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // Interrupt once the first session's container is up and OpenCode is answering requests.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no request started: ${stderr}`)), 120_000);
      child.stderr.on("data", () => {
        if (/request \d+\/\d+/.test(stderr)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect((await labelledContainers()).length).toBeGreaterThan(0);
    child.kill("SIGINT");
    // 130: stopped cleanly on the user's interrupt (no half-written result line).
    expect(await exited).toBe(130);
    expect(stderr).toContain("interrupted: finishing cleanly");
    expect(await labelledContainers()).toEqual([]);
    const partial = await results(out);
    expect(partial).toEqual([]);
    await bench(args.slice(2));
    expect((await results(out)).map((line) => line.resolved)).toEqual([true]);
    expect(await labelledContainers()).toEqual([]);
  }, 400_000);

  it("says which image is missing, before starting anything", async () => {
    const failed = await bench([
      "run",
      "--suite",
      SUITE,
      "--agent",
      "scripted",
      "--modes",
      "native",
      "--sessions",
      "1",
      "--out",
      join(temp.path, "missing"),
      "--env",
      "docker",
      "--image",
      "opencode-rcm-no-such-image:1",
    ]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr.trim().split("\n")).toHaveLength(1);
    expect(failed?.stderr).toContain('--env docker: image "opencode-rcm-no-such-image:1" is not available');
    expect(await labelledContainers()).toEqual([]);
  });
});
