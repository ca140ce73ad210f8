import { describe, expect, it } from "vitest";
import { describeHost } from "../../src/lab/bench/drive/bench-host.js";
import { reportHost, reportSetting } from "../../src/lab/bench/drive/describe-agent.js";
import { opencode2Messages } from "../../src/lab/bench/drive/opencode-2-messages.js";
import { regimeWindow } from "../../src/lab/bench/drive/regimes.js";
import { storedRequests } from "../../src/lab/bench/metrics/stored-requests.js";
import { renderReport } from "../../src/lab/bench/results/render-report.js";
import { type RunSetting, settingDifferences } from "../../src/lab/bench/run-dir/experiment.js";
import { resultLine } from "../support/result-line.js";

// Which OpenCode ran a bench run: kept in its setting, shown in one line of its reports, and read
// as OpenCode 1.18 for runs made before it was kept.

const SETTING: RunSetting = {
  suite: "switch-mini",
  suite_sha256: "a".repeat(64),
  agent: "faithful",
  regime: "tight",
  seed: 1,
  budget_ms: 900_000,
  max_continuations: 3,
  test_timeout_ms: 900_000,
  confidence_threshold: 0.8,
  fallback: "full",
  plugin_version: "0.1.0",
  env: "local",
};
const V1: RunSetting = { ...SETTING, host: "opencode-1", host_version: "1.18.33" };
const V2: RunSetting = { ...SETTING, host: "opencode-2", host_version: "2.0.15" };

describe("the host in a run's setting", () => {
  it("reads a setting made before the host was kept as OpenCode 1.18: a 1.18 rerun goes on, a V2 rerun is another experiment", () => {
    expect(settingDifferences(SETTING, V1)).toEqual([]);
    expect(settingDifferences(SETTING, V2)).toEqual([{ field: "host", made: "opencode-1", asked: "opencode-2" }]);
  });

  it("compares the host's version only when both settings have one", () => {
    expect(settingDifferences(V1, { ...V1, host_version: "1.18.40" })).toEqual([{ field: "host_version", made: "1.18.33", asked: "1.18.40" }]);
    const { host_version: _unasked, ...withoutVersion } = V2;
    expect(settingDifferences(V2, withoutVersion)).toEqual([]);
  });

  it("names the host in one report line, OpenCode 1.18 for a run from before, each host with its count when lines differ", () => {
    expect(describeHost(V2)).toBe("Host: OpenCode 2 (2.0.15), `--host opencode-2`.");
    expect(describeHost(SETTING)).toBe("Host: OpenCode 1.18, `--host opencode-1`.");
    const line = (setting: RunSetting | undefined, session: string) =>
      resultLine({ session_id: session, mode: "native", resolved: true, failure_class: "resolved", ...(setting ? { setting } : {}) });
    expect(reportHost([line(undefined, "s1")])).toBe("Host: OpenCode 1.18, `--host opencode-1`.");
    expect(reportHost([line(V2, "s1"), line(V1, "s2"), line(V2, "s3")])).toBe(
      "Hosts (mixed): 2 lines: OpenCode 2, `--host opencode-2`; 1 lines: OpenCode 1.18, `--host opencode-1`.",
    );
    // A run made before the host was kept, resumed now: its lines ran OpenCode 1.18 too, one experiment.
    const resumed = [line(SETTING, "s1"), line(V1, "s2")];
    expect(reportHost(resumed)).toBe("Host: OpenCode 1.18 (1.18.33), `--host opencode-1`.");
    expect(reportSetting(resumed).setting).not.toContain("Mixed settings");
    const markdown = renderReport([line(V2, "s1")], { title: "t", ...reportSetting([line(V2, "s1")]) });
    expect(markdown.split("\n").filter((text) => text.startsWith("Host"))).toEqual(["Host: OpenCode 2 (2.0.15), `--host opencode-2`."]);
    expect(reportSetting([line(V2, "s1")]).setting).toContain("on OpenCode 2 28k context");
  });

  it("gives the tight window OpenCode 2's own size, and the roomy one the same on both hosts", () => {
    expect(regimeWindow("tight", "opencode-1")).toMatchObject({ context: 16_000, output: 8_000 });
    expect(regimeWindow("tight", "opencode-2")).toMatchObject({ context: 28_000, output: 8_000 });
    expect(regimeWindow("roomy", "opencode-2")).toEqual(regimeWindow("roomy", "opencode-1"));
  });
});

describe("OpenCode 2's stored history, as the metrics read it", () => {
  // As GET /api/session/<id>/message returned it on 2.0.15 (trimmed): a request, a tool step, its
  // report, an idle mark; then a request that overflowed, its compaction, and a step.
  const stored = [
    { id: "msg_1", type: "user", text: "/ws1: first", time: { created: 1 } },
    {
      id: "msg_2",
      type: "assistant",
      agent: "build",
      model: { id: "scripted", providerID: "scripted" },
      time: { created: 2, completed: 3 },
      content: [
        { type: "tool", id: "call_1", name: "shell", state: { status: "completed", input: { command: "ls" }, content: [{ type: "text", text: "a.py" }] } },
        { type: "tool", id: "call_2", name: "write", state: { status: "error", input: {}, error: { type: "tool.execution", message: "Missing key" } } },
      ],
      finish: "tool-calls",
      cost: 0,
      tokens: { input: 3152, output: 46, reasoning: 0, cache: { read: 100, write: 0 } },
    },
    {
      id: "msg_3",
      type: "assistant",
      agent: "build",
      model: { id: "scripted", providerID: "scripted" },
      time: { created: 4 },
      content: [{ type: "text", text: "done" }],
      tokens: { input: 3373, output: 1, reasoning: 0, cache: { read: 0, write: 0 } },
    },
    { id: "msg_4", type: "idle", outcome: "succeeded", time: { created: 5 } },
    { id: "msg_5", type: "user", text: "/ws2: second", time: { created: 6 } },
    {
      id: "msg_6",
      type: "compaction",
      status: "completed",
      reason: "auto",
      summary: "## Objective\n\n- /ws2: second",
      recent: "",
      time: { created: 7 },
      tokens: { input: 8355, output: 90, reasoning: 0, cache: { read: 0, write: 0 } },
    },
    {
      id: "msg_7",
      type: "assistant",
      agent: "build",
      model: { id: "scripted", providerID: "scripted" },
      time: { created: 8 },
      content: [{ type: "text", text: "ok" }],
    },
  ];

  it("splits it at the requests, each model call with its reported tokens and tools, a compaction a summary call", () => {
    const { requests } = storedRequests(opencode2Messages("ses_1", stored));
    expect(requests.map((request) => request.message.info.id)).toEqual(["msg_1", "msg_5"]);
    const [first, second] = requests;
    expect(first?.calls.map((call) => [call.info.tokens.input, call.parts.filter((part) => part.type === "tool").length])).toEqual([
      [3152, 2],
      [3373, 0],
    ]);
    expect(second?.calls.map((call) => [call.info.summary === true, call.info.tokens.input])).toEqual([
      [true, 8355],
      [false, 0],
    ]);
  });

  it("refuses a message it cannot read, naming it", () => {
    expect(() => opencode2Messages("ses_1", [{ id: "msg_1", type: "user", time: { created: 1 } }])).toThrow(/ses_1, stored message 0 \(user\): text/);
  });
});
