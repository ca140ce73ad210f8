import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveStateDir, sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { versionedJsonFile } from "../../src/plugin/store/versioned-json-file.js";
import { makeTempDir } from "../support/temp-dir.js";

const Ledger = z.object({ decisions: z.record(z.string(), z.object({ task: z.string() })) });

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let path: string;
beforeEach(async () => {
  temp = await makeTempDir("rcm-store");
  path = join(temp.path, "sessions", "ses_1.json");
});
afterEach(() => temp.remove());

function ledgerFile(version = 1) {
  return versionedJsonFile({ path, version, schema: Ledger, empty: () => ({ decisions: {} }) });
}

describe("versionedJsonFile", () => {
  it("gives the empty value when no file exists yet", async () => {
    expect(await ledgerFile().load()).toEqual({ status: "missing", value: { decisions: {} } });
  });

  it("reads back what it saved, creating the directory", async () => {
    const file = ledgerFile();
    await file.save({ decisions: { msg_1: { task: "t1" } } });
    expect(await file.load()).toEqual({ status: "loaded", value: { decisions: { msg_1: { task: "t1" } } } });
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ version: 1 });
  });

  it("leaves no temporary file behind after saving", async () => {
    const file = ledgerFile();
    await Promise.all([1, 2, 3].map((n) => file.save({ decisions: { [`msg_${n}`]: { task: "t" } } })));
    expect(await readdir(join(temp.path, "sessions"))).toEqual(["ses_1.json"]);
    expect((await file.load()).status).toBe("loaded");
  });

  it("moves an unreadable file aside, keeping its bytes, and starts from empty", async () => {
    await mkdir(join(temp.path, "sessions"), { recursive: true });
    await writeFile(path, "{ torn");
    const outcome = await ledgerFile().load();
    expect(outcome).toMatchObject({ status: "rebuilt", value: { decisions: {} } });
    if (outcome.status !== "rebuilt") throw new Error("expected rebuilt");
    expect(outcome.reason).toMatch(/^not JSON/);
    expect(await readFile(outcome.movedTo, "utf8")).toBe("{ torn");
    expect((await ledgerFile().load()).status).toBe("missing");
  });

  it("treats another schema version as unreadable and names both versions", async () => {
    await ledgerFile(1).save({ decisions: {} });
    const outcome = await ledgerFile(2).load();
    expect(outcome).toMatchObject({ status: "rebuilt", reason: "schema version 1, expected 2" });
  });

  it("names the field of data that fails the schema", async () => {
    await mkdir(join(temp.path, "sessions"), { recursive: true });
    await writeFile(path, JSON.stringify({ version: 1, data: { decisions: { msg_1: { task: 7 } } } }));
    const outcome = await ledgerFile().load();
    expect(outcome).toMatchObject({ status: "rebuilt" });
    expect(outcome.status === "rebuilt" && outcome.reason).toMatch(/^data\.decisions\.msg_1\.task: /);
  });

  it("enforces its schema where it reads: a value saved against it is moved aside at the next load", async () => {
    const file = versionedJsonFile({ path, version: 1, schema: Ledger, empty: () => ({ decisions: {} }) });
    await file.save({ decisions: { m: { task: 1 } } } as never);
    const outcome = await file.load();
    expect(outcome).toMatchObject({ status: "rebuilt", value: { decisions: {} } });
    expect((await readdir(join(temp.path, "sessions"))).some((name) => name.includes(".unreadable-"))).toBe(true);
  });
});

describe("resolveStateDir", () => {
  const base = { projectID: "p1", env: {}, home: "/home/u" };

  it("prefers the stateDir option", () => {
    expect(resolveStateDir({ ...base, stateDir: "/state" })).toBe("/state");
  });

  it("uses the XDG data dir, per project, never the worktree (state must not leak into patches)", () => {
    expect(resolveStateDir(base)).toBe("/home/u/.local/share/opencode/rcm/p1");
    expect(resolveStateDir({ ...base, env: { XDG_DATA_HOME: "/xdg" } })).toBe("/xdg/opencode/rcm/p1");
  });

  it("keeps one file per session and rejects ids that could escape the directory", () => {
    expect(sessionStatePath("/s", "ses_abc")).toBe("/s/sessions/ses_abc.json");
    expect(() => sessionStatePath("/s", "../x")).toThrow(/unsafe id/);
    expect(() => resolveStateDir({ ...base, projectID: "../p" })).toThrow(/unsafe id/);
  });
});
