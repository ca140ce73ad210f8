import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../../src/plugin/config/options-schema.js";
import { taskName } from "../../src/plugin/core/memory/task-name.js";
import { emptyLedger, recordDecision } from "../../src/plugin/core/routing/ledger.js";
import { createTuiPartCheck, missingTuiPartToast, ourPluginEntry } from "../../src/plugin/hosts/opencode-1/server/tui-part-check.js";
import { problemsLine, problemsToastMessage, wrapWords } from "../../src/plugin/session-views/config-problems.js";
import { renderStatus } from "../../src/plugin/session-views/render-status.js";
import { surePercent, thresholdPercent } from "../../src/plugin/session-views/words.js";
import { NO_SAVINGS, type SessionState } from "../../src/plugin/store/session-state-file.js";
import { hasTuiPart, removeTuiPartMarker, writeTuiPartMarker } from "../../src/plugin/store/tui-part-marker.js";
import { makeTempDir } from "../support/temp-dir.js";

describe("a decision's confidence on screen", () => {
  it("never rounds across the threshold: 0.797 under 0.8 reads 79.7%, 0.7999 reads 79.9%, 0.8 reads 80%", () => {
    expect(surePercent(0.797, 0.8)).toBe("79.7%");
    expect(surePercent(0.7999, 0.8)).toBe("79.9%");
    expect(surePercent(0.8, 0.8)).toBe("80%");
    expect(surePercent(0.79, 0.8)).toBe("79%");
    expect(surePercent(0.92, 0.8)).toBe("92%");
    expect(surePercent(0.55, 0.8)).toBe("55%");
    expect(surePercent(1, 0.8)).toBe("100%");
  });

  it("keeps a sure decision at or over the threshold when rounding would drop it under", () => {
    expect(surePercent(0.8049, 0.8045)).toBe("80.5%");
    expect(surePercent(0.7, 0.7)).toBe("70%");
    expect(surePercent(0.6999, 0.7)).toBe("69.9%");
  });

  it("shows a threshold as it is set: 80%, 82.5%", () => {
    expect(thresholdPercent(0.8)).toBe("80%");
    expect(thresholdPercent(0.825)).toBe("82.5%");
  });
});

describe("/rcm status", () => {
  const { ledger } = recordDecision(emptyLedger(), "m1", {
    target: { kind: "new", title: "separate thing: export_csv should quote" },
    confidence: 0.797,
    related: [],
    shared: false,
    reason: "r",
    router: "lexical",
    basis: "content",
  });
  const state: SessionState = { sessionID: "ses_1", ledger, records: {}, memoryUpdates: [], off: false, saved: NO_SAVINGS };

  it("says 79.7% under 80% and names the task without its cue", () => {
    const status = renderStatus(DEFAULT_OPTIONS, state);
    expect(status).toContain('Last request (#1): new task t1 "export_csv should quote", 79.7% sure it is new: r.');
    expect(status).toContain("79.7% is under 80%");
  });

  it("after off and a request, says no decision was made for the latest request", () => {
    const status = renderStatus(DEFAULT_OPTIONS, { ...state, off: true, whileOff: [{ messageID: "m2", text: "more" }] });
    expect(status).toContain("Latest request: no decision, opencode-rcm is off (1 request sent while off, routed once it is on).");
    expect(status).toContain("Last routed request, before off (#1): new task t1");
    expect(status).not.toMatch(/^Last request:/m);
  });

  it("lists the options' problems the panel only counts", () => {
    expect(renderStatus(DEFAULT_OPTIONS, state, {}, ["a.jsonc:2: unknown option x; ignored"])).toMatch(
      /\nConfig problems \(1; each option falls back to its default\):\n {2}a\.jsonc:2: unknown option x; ignored$/,
    );
  });
});

describe("a task's name on screen", () => {
  it("drops the words that only steer and keeps what the task is about", () => {
    expect(taskName("separate thing: export_csv in src/export.py should quote fields that…")).toBe("export_csv in src/export.py should quote fields that…");
    expect(taskName("New task: the install guide is out of date")).toBe("The install guide is out of date");
    expect(taskName("New task: add a --json flag to the command line in src/cli.py")).toBe("Add a --json flag to the command line in src/cli.py");
    expect(taskName("one more on parse_line: strip quotes")).toBe("parse_line: strip quotes");
    // Nothing the user did not type in front (issue 48): no code name or file brought forward as a prefix.
    expect(taskName("ok so can you make the retry logic in the HTTP client back off for fetchWithRetry")).toBe(
      "Make the retry logic in the HTTP client back off for fetchWithRetry",
    );
    expect(taskName("Also the healthz route should answer HEAD requests, see package.json")).toBe(
      "The healthz route should answer HEAD requests, see package.json",
    );
    expect(taskName("separate thing: config.json values should be validated on load")).toBe("config.json values should be validated on load");
  });

  it("leaves a title that already names its task as it is, and is the same every time", () => {
    const title = "Fix the date parser in src/dates.py: parse_date crashes on…";
    expect(taskName(title)).toBe(title);
    expect(taskName("Never commit the .env file")).toBe("Never commit the .env file");
    expect(taskName("untitled task")).toBe("Untitled task");
    expect(taskName("separate thing:")).toBe("Separate thing:");
  });
});

describe("the options' problems on screen", () => {
  const five = [
    "/home/me/p/rcm.jsonc:2: unknown option confidenceTreshold (did you mean confidenceThreshold?); ignored",
    '/home/me/p/rcm.jsonc:3: invalid mode = "fast": expected one of native, router, memory, full; using the default "full"',
    "/home/me/p/rcm.jsonc:4: invalid confidenceThreshold = 2: too big; using the default 0.8",
    "/home/me/p/rcm.jsonc:5: unknown option notfy (did you mean notify?); ignored",
    'RCM_ROUTER: invalid router = "smart": expected lexical or model; using the default "lexical"',
  ];

  it("takes one line in the panel, whatever their number", () => {
    expect(problemsLine(0)).toBeUndefined();
    expect(problemsLine(1)).toBe("1 config problem: /rcm status");
    expect(problemsLine(5)).toBe("5 config problems: /rcm status");
  });

  it("lists the details in the toast on lines broken only at spaces, never inside a number", () => {
    const message = problemsToastMessage({ problems: five, width: 52 });
    const lines = message.split("\n");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(52);
    expect(message).toContain("default 0.8");
    expect(message.replace(/\n\s*/g, " ")).toBe(five.join(" "));
    expect(problemsToastMessage({ problems: [...five, "one more"], width: 52 })).toMatch(/\(\+1 more: \/rcm status and the log\)$/);
  });

  it("keeps a word longer than a line whole", () => {
    expect(wrapWords("see /a/very/long/path/to/rcm.jsonc:12 now", 10)).toEqual(["see", "/a/very/long/path/to/rcm.jsonc:12", "now"]);
  });
});

describe("the TUI part missing", () => {
  it("names the exact tui.json line, from the entry the server part was listed by", () => {
    expect(ourPluginEntry([["/opt/pkgs/opencode-rcm", { mode: "full" }]], "/opt/pkgs/opencode-rcm")).toBe("/opt/pkgs/opencode-rcm");
    expect(ourPluginEntry(["file:///opt/pkgs/opencode-rcm"], "/opt/pkgs/opencode-rcm")).toBe("/opt/pkgs/opencode-rcm");
    expect(ourPluginEntry(["other-plugin", "opencode-rcm@0.1.0"], "/x")).toBe("opencode-rcm@0.1.0");
    expect(ourPluginEntry(undefined, "/x")).toBe("opencode-rcm");
    expect(missingTuiPartToast("./node_modules/opencode-rcm").message).toContain('\n{ "plugin": ["./node_modules/opencode-rcm"] }\n');
  });

  it("says it once, only when the TUI part of this process never announced itself", async () => {
    const temp = await makeTempDir("tui-part");
    try {
      const said: string[] = [];
      const check = (pid: number) =>
        createTuiPartCheck({
          stateDir: temp.path,
          pid,
          entry: async () => "/opt/opencode-rcm",
          toast: async (toast) => void said.push(toast.title),
          log: async (line) => void said.push(line),
        });
      await writeTuiPartMarker(temp.path, 4242, () => true);
      expect(await hasTuiPart(temp.path, 4242)).toBe(true);
      await check(4242)();
      expect(said).toEqual([]);
      const missing = check(4343);
      await missingBoth(missing);
      expect(said).toHaveLength(2);
      expect(said[0]).toContain('Add to tui.json, next to opencode.json: { "plugin": ["/opt/opencode-rcm"] }');
      expect(said[1]).toBe("opencode-rcm: TUI part not loaded");
      await removeTuiPartMarker(temp.path, 4242);
      expect(await hasTuiPart(temp.path, 4242)).toBe(false);
    } finally {
      await temp.remove();
    }
  });

  it("clears the notes of TUIs that are gone", async () => {
    const temp = await makeTempDir("tui-part");
    try {
      await mkdir(join(temp.path, "tui-parts"), { recursive: true });
      await writeFile(join(temp.path, "tui-parts", "999999"), "");
      await writeTuiPartMarker(temp.path, 1, (pid) => pid !== 999999);
      expect(await hasTuiPart(temp.path, 999999)).toBe(false);
      expect(await hasTuiPart(temp.path, 1)).toBe(true);
    } finally {
      await temp.remove();
    }
  });
});

/** Runs the check twice: the second call says nothing more. */
async function missingBoth(check: () => Promise<void>): Promise<void> {
  await check();
  await check();
}
