import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/kit/package-root.js";
import { ResultLineSchema } from "../../src/lab/bench/run-dir/result-line.js";
import { runCliOk } from "../support/run-cli.js";
import { makeTempDir } from "../support/temp-dir.js";

const SUITE = join(packageRoot(), "fixtures", "bench-small");
// The bench commands through the CLI's main in this process, with this process's environment (git, python, OPENCODE_BIN).
const bench = (args: readonly string[]) => runCliOk(["bench", ...args], process.env);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeAll(async () => {
  temp = await makeTempDir("rcm-bench-shards");
});
afterAll(async () => {
  await temp?.remove();
});

describe("bench run --shard and bench merge", () => {
  it("splits a run into shards that together do every session run once, and merges them into one report", async () => {
    const common = ["run", "--suite", SUITE, "--agent", "scripted", "--modes", "native,router", "--sessions", "2", "--budget-s", "120"];
    const parts = [join(temp.path, "shard-1"), join(temp.path, "shard-2")];
    const first = await bench([...common, "--shard", "1/2", "--out", parts[0] as string]);
    const second = await bench([...common, "--shard", "2/2", "--out", parts[1] as string]);
    expect(first.stdout).toContain("2 session runs now, 0 already done; done.");
    expect(second.stdout).toContain("2 session runs now, 0 already done; done.");

    const out = join(temp.path, "merged");
    const merged = await bench(["merge", ...parts, "--out", out]);
    expect(merged.stdout).toContain(`4 session runs merged into ${join(out, "results.jsonl")}`);
    const lines = (await readFile(join(out, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => ResultLineSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => `${line.mode} ${line.session_id}`).sort()).toEqual(
      ["native", "router"].flatMap((mode) => ["minitext__minitext-1__switched", "minitext__minitext-1__uninterrupted"].map((id) => `${mode} ${id}`)).sort(),
    );
    expect(await readFile(join(out, "report.md"), "utf8")).toMatch(/\| native \| 100\.0% \(1\/1\) \| 100\.0% \(1\/1\) \|/);
    const line = lines[0];
    expect(await readFile(join(out, "sessions", line?.session_id ?? "", line?.mode ?? "", "focus.patch"), "utf8")).toMatch(/^diff --git/);
    expect(JSON.parse(await readFile(join(out, "run.json"), "utf8")).parts).toEqual(parts);

    // A shard twice, or shards of different settings, are refused with the reason.
    const twice = await failure(bench(["merge", parts[0] as string, parts[0] as string, "--out", join(temp.path, "twice")]));
    expect(twice?.code).toBe(2);
    expect(twice?.stderr).toMatch(/is in both .*shard-1 and .*shard-1/);
    // Half the shards: refused, naming the missing one, and nothing written; --partial merges and says so.
    const half = await failure(bench(["merge", parts[0] as string, "--out", join(temp.path, "half")]));
    expect(half?.stderr).toContain("incomplete: shard 2/2 not given");
    expect(existsSync(join(temp.path, "half"))).toBe(false);
    const other = join(temp.path, "other-seed");
    // Shard 2's directory as if made with seed 7 (a run would take 15 s to say the same).
    await cp(parts[1] as string, other, { recursive: true });
    const runJson = JSON.parse(await readFile(join(other, "run.json"), "utf8"));
    await writeFile(join(other, "run.json"), JSON.stringify({ ...runJson, setting: { ...runJson.setting, seed: 7 } }));
    const mixed = await failure(bench(["merge", parts[0] as string, other, "--out", join(temp.path, "mixed")]));
    expect(mixed?.stderr).toContain(`${other} differs from ${parts[0]} in seed: 7 vs 1`);
  }, 600_000);
});
