import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opencodeBinary } from "../../src/harness/opencode-binary.js";
import { packageRoot } from "../../src/harness/package-root.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const ROOT = packageRoot();

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let app: string;
let cli: string;
/** This PATH without any directory holding an opencode: the installed package must find it itself or say how. */
const PATH = (process.env["PATH"] ?? "/usr/bin:/bin")
  .split(delimiter)
  .filter((dir) => dir !== "" && !existsSync(join(dir, "opencode")))
  .join(delimiter);

beforeAll(async () => {
  temp = await makeTempDir("rcm-installed");
  // The tarball `npm publish` would upload, installed by npm into an empty project. Tests talk
  // to loopback only, so npm installs offline from the cache `npm ci` filled: the project's
  // lockfile pins the tarball and, for its dependencies, the very versions this repository's
  // lockfile resolved (npm needs no registry metadata then).
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", temp.path], { cwd: ROOT, maxBuffer: 10 * 1024 * 1024 });
  const name = stdout.trim().split("\n").at(-1) ?? "";
  app = join(temp.path, "app");
  await mkdir(app);
  await writeProject(app, `file:../${name}`, await readFile(join(temp.path, name)));
  await run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], { cwd: app, maxBuffer: 10 * 1024 * 1024, timeout: 300_000 });
  cli = join(app, "node_modules", ".bin", "opencode-rcm");
}, 360_000);
afterAll(async () => {
  await temp?.remove();
});

/** package.json and package-lock.json of a project depending on the tarball alone. */
async function writeProject(dir: string, spec: string, tarball: Buffer): Promise<void> {
  const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
  const lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
  const root = { name: "app", version: "1.0.0", dependencies: { "opencode-rcm": spec } };
  const packages: Record<string, unknown> = {
    "": root,
    "node_modules/opencode-rcm": {
      version: manifest["version"],
      resolved: spec,
      integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      license: manifest["license"],
      dependencies: manifest["dependencies"],
      peerDependencies: manifest["peerDependencies"],
      peerDependenciesMeta: manifest["peerDependenciesMeta"],
      bin: manifest["bin"],
      engines: manifest["engines"],
    },
  };
  // The package's own dependency tree: every entry of this repository's lockfile that is not dev-only.
  for (const [path, entry] of Object.entries(lock.packages)) if (path.startsWith("node_modules/") && !entry.dev) packages[path] = entry;
  await writeFile(join(dir, "package.json"), `${JSON.stringify(root, null, 2)}\n`);
  await writeFile(join(dir, "package-lock.json"), `${JSON.stringify({ name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

describe("the package as installed from its tarball", () => {
  it("ships what it needs and nothing of the tests: LICENSE, the mini suite, source maps with their sources, no test fakes", async () => {
    const installed = join(app, "node_modules", "opencode-rcm");
    expect(await readFile(join(installed, "LICENSE"), "utf8")).toContain("MIT License");
    expect(await readdir(join(installed, "fixtures", "switch-mini"))).toEqual(expect.arrayContaining(["suite.json", "sessions.jsonl", "tasks", "repos", "agent.json"]));
    const files = (await readdir(join(installed, "dist"), { recursive: true })).map(String);
    expect(files.some((file) => file.includes("fake-aux-endpoint"))).toBe(false);
    const maps = files.filter((file) => file.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(50);
    for (const map of maps) {
      const parsed = JSON.parse(await readFile(join(installed, "dist", map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(parsed.sourcesContent?.length, map).toBe(parsed.sources.length);
    }
  });

  it("runs --version and route-eval, and a two-session bench with the OpenCode binary it is given", async () => {
    const env = { ...process.env, PATH: `${join(process.execPath, "..")}${delimiter}${PATH}` };
    const version = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).version as string;
    expect((await run(cli, ["--version"], { env })).stdout.trim()).toBe(`opencode-rcm ${version}`);
    const evaluated = await run(cli, ["route-eval", join(ROOT, "fixtures", "routing-corpus", "test"), "--json"], { env, maxBuffer: 10 * 1024 * 1024 });
    expect(JSON.parse(evaluated.stdout)).toHaveProperty("accuracy");

    // Without opencode-ai beside it and none on PATH: one line that says what to do.
    const missing = await run(cli, ["bench", "mini", "--sessions", "1", "--modes", "native", "--out", join(temp.path, "no-opencode")], { env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(missing?.code).toBe(2);
    expect(missing?.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing?.stderr).toContain("opencode not found");
    expect(missing?.stderr).toContain("--opencode-bin");
    expect(missing?.stderr.trim()).toMatch(/\(opencode-not-found\)$/);

    const out = join(temp.path, "run");
    const bench = await run(cli, ["bench", "mini", "--sessions", "2", "--modes", "native", "--out", out, "--opencode-bin", opencodeBinary()], { env, maxBuffer: 20 * 1024 * 1024, timeout: 300_000 });
    expect(bench.stdout).toContain("2 session runs now, 0 already done; done.");
    const lines = (await readFile(join(out, "results.jsonl"), "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).resolved)).toEqual([true, true]);
    expect(await readFile(join(out, "report.html"), "utf8")).toContain('<svg class="chart resolution"');
  }, 400_000);
});
