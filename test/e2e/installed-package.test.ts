import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtEntry, packageRoot } from "../../src/kit/package-root.js";
import { createGitRepo } from "../../src/lab/harness/git-repo.js";
import { createIsolatedHome } from "../../src/lab/harness/isolated-home.js";
import { opencode2Config, openSession, startOpencode2Server } from "../../src/lab/harness/opencode-2-server.js";
import { opencodeBinary } from "../../src/lab/harness/opencode-binary.js";
import { offlineConfig, type PluginEntry } from "../../src/lab/harness/opencode-config.js";
import { startScriptedModel } from "../../src/lab/scripted-model/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startTui } from "../support/tmux-tui.js";
import { ASK, EVERYDAY_SCRIPT, replyOf } from "./support/everyday-session.js";

const run = promisify(execFile);
const ROOT = packageRoot();

let temp: Awaited<ReturnType<typeof makeTempDir>>;
/** A copy of the sources as a fresh clone has them: no dist/. */
let checkout: string;
let app: string;
let installed: string;
let cli: string;
/** This PATH without any directory holding an opencode: the installed package must find it itself or say how. */
const PATH = (process.env.PATH ?? "/usr/bin:/bin")
  .split(delimiter)
  .filter((dir) => dir !== "" && !existsSync(join(dir, "opencode")))
  .join(delimiter);

beforeAll(async () => {
  temp = await makeTempDir("rcm-installed");
  // The sources as a clone has them (tracked and new files, nothing ignored: no dist/), with
  // this repository's node_modules for the build tools. `npm pack` must build it (prepack).
  checkout = join(temp.path, "checkout");
  const { stdout: listed } = await run("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT, maxBuffer: 20 * 1024 * 1024 });
  for (const file of listed.split("\0").filter((path) => path !== "" && existsSync(join(ROOT, path)))) {
    await mkdir(dirname(join(checkout, file)), { recursive: true });
    await cp(join(ROOT, file), join(checkout, file));
  }
  await symlink(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
  expect(existsSync(join(checkout, "dist"))).toBe(false);
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", temp.path], { cwd: checkout, maxBuffer: 20 * 1024 * 1024, timeout: 300_000 });
  const name = stdout.trim().split("\n").at(-1) ?? "";
  // The tarball `npm publish` would upload, installed by npm into an empty project. Tests talk
  // to loopback only, so npm installs offline from the cache `npm ci` filled: the project's
  // lockfile pins the tarball and, for its dependencies, the very versions this repository's
  // lockfile resolved (npm needs no registry metadata then).
  app = join(temp.path, "app");
  await mkdir(app);
  await writeProject(app, `file:../${name}`, await readFile(join(temp.path, name)));
  await run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], { cwd: app, maxBuffer: 10 * 1024 * 1024, timeout: 300_000 });
  installed = join(app, "node_modules", "opencode-rcm");
  cli = join(app, "node_modules", ".bin", "opencode-rcm");
}, 600_000);
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
      version: manifest.version,
      resolved: spec,
      integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      license: manifest.license,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
      bin: manifest.bin,
      engines: manifest.engines,
    },
  };
  // The package's own dependency tree: every entry of this repository's lockfile that is not dev-only.
  for (const [path, entry] of Object.entries(lock.packages)) if (path.startsWith("node_modules/") && !entry.dev) packages[path] = entry;
  await writeFile(join(dir, "package.json"), `${JSON.stringify(root, null, 2)}\n`);
  await writeFile(
    join(dir, "package-lock.json"),
    `${JSON.stringify({ name: "app", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}

/**
 * OpenCode's resolved config in `directory` as `opencode debug config` prints it: the
 * plug-in's server part loaded when its command is there (OpenCode says nothing when a
 * listed plug-in does not resolve).
 */
async function resolvedConfig(directory: string, env: Record<string, string>): Promise<{ command?: Record<string, unknown> }> {
  const { stdout } = await run(opencodeBinary(), ["debug", "config"], { cwd: directory, env: { PATH, ...env }, maxBuffer: 10 * 1024 * 1024, timeout: 120_000 });
  return JSON.parse(stdout) as { command?: Record<string, unknown> };
}

describe("the package as installed from its tarball", () => {
  it("is built by npm pack from a fresh clone and ships what it needs: dist with the TUI part, LICENSE, the mini suite, the routing test split, the schema, no test fakes, no dev code, no source maps", async () => {
    expect(await readFile(join(installed, "LICENSE"), "utf8")).toContain("MIT License");
    expect(await readdir(join(installed, "fixtures", "switch-mini"))).toEqual(
      expect.arrayContaining(["suite.json", "sessions.jsonl", "tasks", "repos", "agent.json"]),
    );
    expect((await readdir(join(installed, "fixtures", "routing-corpus", "test"))).filter((file) => file.endsWith(".jsonl")).length).toBeGreaterThanOrEqual(6);
    expect(existsSync(join(installed, "fixtures", "routing-corpus", "train"))).toBe(false);
    expect(existsSync(builtEntry("./tui", installed))).toBe(true);
    // OpenCode 2 loads a folder's TUI part from its tui.js (it reads no exports for a folder).
    expect(existsSync(join(installed, "tui.js"))).toBe(true);
    const schema = JSON.parse(await readFile(join(installed, "rcm.schema.json"), "utf8")) as Record<string, unknown>;
    expect(schema.$id).toBeUndefined();
    const files = (await readdir(join(installed, "dist"), { recursive: true })).map(String);
    expect(files.some((file) => file.includes("fake-aux-endpoint"))).toBe(false);
    // Only what the plug-in, the TUI and the CLI run: no development code (dist/dev) and no source maps.
    expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
    expect(files.filter((file) => file === "dev" || file.startsWith("dev/"))).toEqual([]);
  });

  it("loads in OpenCode by each README entry: the project's node_modules, an absolute path (a global install), a checkout", async () => {
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "install-requests.jsonl") });
    try {
      // README: npm i opencode-rcm in the project; "./node_modules/opencode-rcm" in its opencode.json and tui.json.
      const projectHome = await createIsolatedHome({ root: join(temp.path, "home-project"), config: offlineConfig({ modelBaseURL: model.url, plugins: [] }) });
      const { OPENCODE_DISABLE_PROJECT_CONFIG: _projectConfigOff, ...projectEnv } = projectHome.env;
      await writeFile(join(app, "opencode.json"), `${JSON.stringify({ plugin: ["./node_modules/opencode-rcm"] }, null, 2)}\n`);
      await writeFile(join(app, "tui.json"), `${JSON.stringify({ plugin: ["./node_modules/opencode-rcm"] }, null, 2)}\n`);
      expect((await resolvedConfig(app, projectEnv)).command).toHaveProperty("rcm-text");
      // A bare name is skipped by OpenCode without a word (it would install it from the registry): the README's check catches it.
      await writeFile(join(app, "opencode.json"), `${JSON.stringify({ plugin: ["opencode-rcm"] }, null, 2)}\n`);
      expect((await resolvedConfig(app, projectEnv)).command ?? {}).not.toHaveProperty("rcm-text");
      await writeFile(join(app, "opencode.json"), `${JSON.stringify({ plugin: ["./node_modules/opencode-rcm"] }, null, 2)}\n`);

      // README: a global install (npm i -g), its absolute path in ~/.config/opencode/opencode.json and tui.json.
      for (const [name, entry] of [
        ["global", resolve(installed)],
        ["checkout", checkout],
      ] as const) {
        const home = await createIsolatedHome({
          root: join(temp.path, `home-${name}`),
          config: offlineConfig({ modelBaseURL: model.url, plugins: [entry] satisfies PluginEntry[] }),
        });
        const empty = join(temp.path, `project-${name}`);
        await createGitRepo(empty, { "README.md": "# empty\n" });
        expect((await resolvedConfig(empty, home.env)).command, name).toHaveProperty("rcm-text");
      }

      // The TUI part of the npm install: its panel in the real TUI after one request.
      await createGitRepo(join(temp.path, "tui-project"), { "README.md": "# tools\n" });
      const tuiProject = join(temp.path, "tui-project");
      const tuiHome = await createIsolatedHome({
        root: join(temp.path, "home-tui"),
        config: offlineConfig({ modelBaseURL: model.url, plugins: [resolve(installed)] }),
        tui: { plugin: [resolve(installed)] },
      });
      const tui = await startTui({ directory: tuiProject, home: tuiHome, modelName: "scripted" });
      try {
        await tui.submit(ASK.dates, (screen) => screen.includes(replyOf("dates")), 90_000);
        await tui.waitFor((screen) => screen.includes("RCM · full") && screen.includes("▶ t1 Fix the date parser"), "the task panel of the installed package");
      } finally {
        await tui.close();
      }
    } finally {
      await model.close();
    }
  }, 400_000);

  it("loads in OpenCode 2.0.15 too, from the installed folder as the README's plugins entry names it", async () => {
    const model = await startScriptedModel({ script: EVERYDAY_SCRIPT, logFile: join(temp.path, "v2-requests.jsonl") });
    const project = join(temp.path, "project-v2");
    await createGitRepo(project, { "README.md": "# tools\n" });
    const server = await startOpencode2Server({
      root: join(temp.path, "home-v2"),
      cwd: project,
      config: opencode2Config({ modelBaseURL: model.url, plugins: [resolve(installed)] }),
    });
    try {
      await openSession(server, project).then((session) => session.prompt(ASK.dates));
      const listed = await server.api<{ data: Array<{ id: string; source: { path?: string }; features: { tui?: boolean }; state: { status: string } }> }>(
        "GET",
        `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(project)}`,
      );
      expect(listed.data.find((plugin) => plugin.id === "opencode-rcm")).toMatchObject({
        source: { path: join(resolve(installed), "server.js") },
        // The folder's tui.js: OpenCode 2's TUI loads the TUI part of every plug-in listed with it.
        features: { tui: true },
        state: { status: "active" },
      });
      expect(server.output()).toContain("opencode-rcm info routed to t1 (new)");
    } finally {
      await server.close();
      await model.close();
    }
  }, 120_000);

  it("runs --version, route-eval on the split it ships, and a two-session bench with the OpenCode binary it is given", async () => {
    const env = { ...process.env, PATH: `${join(process.execPath, "..")}${delimiter}${PATH}` };
    const version = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).version as string;
    expect((await run(cli, ["--version"], { env })).stdout.trim()).toBe(`opencode-rcm ${version}`);
    // npx in the project, no path: the held-out test split in the package.
    const evaluated = await run("npx", ["--offline", "opencode-rcm", "route-eval", "--json"], { cwd: app, env, maxBuffer: 10 * 1024 * 1024 });
    const figures = JSON.parse(evaluated.stdout) as { n: number; accuracy: number };
    expect(figures.n).toBeGreaterThan(100);
    expect(figures.accuracy).toBeGreaterThan(0.5);

    // Without opencode-ai beside it and none on PATH: one line that says what to do, and no run folder left.
    const noOpencode = join(temp.path, "no-opencode");
    const missing = await run(cli, ["bench", "mini", "--sessions", "1", "--modes", "native", "--out", noOpencode], { env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(missing?.code).toBe(2);
    expect(missing?.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing?.stderr).toContain("opencode not found");
    expect(missing?.stderr).toContain("--opencode-bin");
    expect(missing?.stderr.trim()).toMatch(/\(opencode-not-found\)$/);
    expect(existsSync(noOpencode)).toBe(false);

    const out = join(temp.path, "run");
    const bench = await run(
      cli,
      ["bench", "mini", "--sessions", "2", "--modes", "native", "--regimes", "roomy", "--out", out, "--opencode-bin", opencodeBinary()],
      { env, maxBuffer: 20 * 1024 * 1024, timeout: 300_000 },
    );
    // The two sessions and the switched one's resumed twin (mini's default conditions).
    expect(bench.stdout).toContain("3 session runs now, 0 already done; done.");
    expect(bench.stdout).toContain(`${join(out, "report.html")} (open in a browser)`);
    const lines = (await readFile(join(out, "roomy", "results.jsonl"), "utf8")).trim().split("\n");
    // Native's return in a new session sees only the last stage's request: the faithful agent loses stage 1.
    const resolved = Object.fromEntries(lines.map((line) => [JSON.parse(line).condition, JSON.parse(line).resolved]));
    expect(resolved).toEqual({ uninterrupted: true, switched: true, resumed: false });
    expect(await readFile(join(out, "report.html"), "utf8")).toContain('<svg class="chart resolution"');
  }, 400_000);
});
