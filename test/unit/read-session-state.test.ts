import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readPluginState } from "../../src/lab/bench/metrics/plugin-state.js";
import { emptyLedger } from "../../src/plugin/core/routing/ledger.js";
import { readSessionState } from "../../src/plugin/store/read-session-state.js";
import { NO_SAVINGS, sessionStateFile } from "../../src/plugin/store/session-state-file.js";
import { sessionStatePath } from "../../src/plugin/store/state-dir.js";
import { makeTempDir } from "../support/temp-dir.js";

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-read-state");
});
afterEach(() => temp.remove());

describe("readSessionState", () => {
  it("reads what the plug-in saved", async () => {
    await sessionStateFile(temp.path, "ses_1").save({
      sessionID: "ses_1",
      ledger: emptyLedger(),
      records: {},
      memoryUpdates: [],
      off: false,
      saved: NO_SAVINGS,
    });
    expect(await readSessionState(temp.path, "ses_1")).toMatchObject({ status: "loaded", state: { sessionID: "ses_1" } });
  });

  it("says when there is no file", async () => {
    expect(await readSessionState(temp.path, "ses_none")).toEqual({ status: "missing" });
  });

  it("reports a corrupt state file and leaves it where it is, byte for byte", async () => {
    const path = sessionStatePath(temp.path, "ses_2");
    await mkdir(join(temp.path, "sessions"), { recursive: true });
    await writeFile(path, "{ torn");
    const read = await readSessionState(temp.path, "ses_2");
    expect(read).toMatchObject({ status: "unreadable", file: path });
    expect(read.status === "unreadable" && read.reason).toMatch(/^not JSON/);
    expect(await readdir(join(temp.path, "sessions"))).toEqual(["ses_2.json"]);
    expect(await readFile(path, "utf8")).toBe("{ torn");
  });

  it("gives the bench's metrics no state, and the reason, for a corrupt file", async () => {
    const path = sessionStatePath(temp.path, "ses_3");
    await mkdir(join(temp.path, "sessions"), { recursive: true });
    await writeFile(path, JSON.stringify({ version: 99, data: {} }));
    const state = await readPluginState(temp.path, "ses_3");
    expect(state).toEqual({ unreadable: `${path}: schema version 99, expected 4` });
    expect(await readdir(join(temp.path, "sessions"))).toEqual(["ses_3.json"]);
  });
});
