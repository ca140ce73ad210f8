import { appendFile, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changedRouterFitInputs, readRouterFitInputs, routerFitInputs, routerFitInputsFile } from "../../src/dev/fit/router-fit-inputs.js";
import { packageRoot } from "../../src/kit/package-root.js";
import { makeTempDir } from "../support/temp-dir.js";

const ROOT = packageRoot();

describe("the router parameters' recorded inputs", () => {
  it("are the inputs the tree has now: change a feature, an option, the fit or the train split, and run `npm run fit-router` (the refit itself is in test/slow)", () => {
    const changed = changedRouterFitInputs(readRouterFitInputs(ROOT), routerFitInputs(ROOT));
    expect(changed, "the router's inputs changed since the last fit: run npm run fit-router and commit both files it writes").toEqual([]);
  });

  const temps: { remove: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const temp of temps.splice(0)) await temp.remove();
  });

  /** A copy of the files the fit reads, and a materialised development set, in a temporary tree. */
  async function copiedTree(): Promise<{ root: string; dataDir: string }> {
    const temp = await makeTempDir("rcm-fit-inputs");
    temps.push(temp);
    const root = join(temp.path, "repo");
    const recorded = readRouterFitInputs(ROOT);
    const manifests = Object.keys(recorded.packages).map((name) => `node_modules/${name}/package.json`);
    for (const file of [...Object.keys(recorded.files), ...manifests]) {
      await mkdir(dirname(join(root, file)), { recursive: true });
      await copyFile(join(ROOT, file), join(root, file));
    }
    const dataDir = join(temp.path, "data");
    await mkdir(join(dataDir, "routing-threads-dev"), { recursive: true });
    await writeFile(join(dataDir, "routing-threads-dev", "sessions.jsonl"), "{}\n");
    return { root, dataDir };
  }

  it("name each file that changed, each file a source file newly imports, and a materialised set that changed; the same tree gives the same inputs", async () => {
    const { root, dataDir } = await copiedTree();
    const before = routerFitInputs(root, dataDir);
    expect(Object.keys(before.materialised)).toEqual(["fixtures/routing-threads-dev"]);
    expect(before.files["src/plugin/core/routing/routing-features.ts"]).toBeDefined();
    expect(before.files["src/plugin/config/options-schema.ts"]).toBeDefined();
    expect(changedRouterFitInputs(before, routerFitInputs(root, dataDir))).toEqual([]);

    await appendFile(join(root, "src/plugin/core/routing/signals.ts"), '\nimport "./new-feature.js";\n');
    await writeFile(join(root, "src/plugin/core/routing/new-feature.ts"), "export const NEW = 1;\n");
    await appendFile(join(root, "fixtures/routing-corpus/train/pallets-flask.jsonl"), "\n");
    await writeFile(join(dataDir, "routing-threads-dev", "sessions.jsonl"), "{ }\n");
    expect(changedRouterFitInputs(before, routerFitInputs(root, dataDir))).toEqual([
      "file fixtures/routing-corpus/train/pallets-flask.jsonl: changed",
      "file src/plugin/core/routing/new-feature.ts: new",
      "file src/plugin/core/routing/signals.ts: changed",
      "materialised fixtures/routing-threads-dev: changed",
    ]);
  });

  it("do not count a comment or a type annotation, and do count a changed constant", async () => {
    const { root, dataDir } = await copiedTree();
    const before = routerFitInputs(root, dataDir);
    const signals = join(root, "src/plugin/core/routing/signals.ts");
    await appendFile(signals, "\n/** A note for readers only. */\ntype ForReaders = string;\n");
    expect(changedRouterFitInputs(before, routerFitInputs(root, dataDir))).toEqual([]);
    await appendFile(signals, "export const ADDED_LIMIT = 3;\n");
    expect(changedRouterFitInputs(before, routerFitInputs(root, dataDir))).toEqual(["file src/plugin/core/routing/signals.ts: changed"]);
  });

  it("do not count a materialised set this machine does not have, nor CRLF line endings", async () => {
    const { root, dataDir } = await copiedTree();
    const before = routerFitInputs(root, dataDir);
    const options = join(root, "src/plugin/config/options-schema.ts");
    await writeFile(options, (await readFile(options, "utf8")).replaceAll("\n", "\r\n"));
    expect(changedRouterFitInputs(before, routerFitInputs(root, join(root, "no-data-here")))).toEqual([]);
  });

  it("name the recorded file when it is not what the fit writes", async () => {
    const { root } = await copiedTree();
    await mkdir(dirname(routerFitInputsFile(root)), { recursive: true });
    await writeFile(routerFitInputsFile(root), '{ "files": {} }\n');
    expect(() => readRouterFitInputs(root)).toThrow(/router-parameters\.inputs\.json: not the inputs npm run fit-router records/);
    await writeFile(routerFitInputsFile(root), "{");
    expect(() => readRouterFitInputs(root)).toThrow(/router-parameters\.inputs\.json: .*npm run fit-router writes it/);
  });
});
