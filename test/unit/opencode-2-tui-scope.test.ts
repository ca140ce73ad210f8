import { describe, expect, it } from "vitest";
import { pluginTupleOptions } from "../../src/plugin/config/plugin-tuple.js";
import { rcmEntries } from "../../src/plugin/hosts/opencode-2/tui/scope.js";

// What OpenCode 2.0.15's `GET /api/config` answers: the layers, global first, each with what its file says.
const PACKAGE_DIR = "/home/me/app/node_modules/opencode-rcm";
const globalLayer = {
  type: "document",
  path: "/home/me/.config/opencode/opencode.json",
  info: { plugins: [{ package: "opencode-rcm", options: { mode: "full" } }, "other-plugin"] },
};
const projectLayer = {
  type: "document",
  path: "/home/me/app/opencode.json",
  info: { plugins: [{ package: "./node_modules/opencode-rcm", options: { mode: "router", stateDir: "/tmp/s" } }] },
};

describe("the V2 TUI part's options, read from the config layers the server resolved", () => {
  it("finds a relative folder entry from its config file's folder, and a later layer's entry wins", () => {
    const entries = rcmEntries([globalLayer, { type: "directory", path: "/home/me/.config/opencode" }, projectLayer], PACKAGE_DIR);
    expect(entries).toEqual([
      [PACKAGE_DIR, { mode: "router", stateDir: "/tmp/s" }],
      ["opencode-rcm", { mode: "full" }],
    ]);
    expect(pluginTupleOptions(entries, PACKAGE_DIR)).toEqual({ mode: "router", stateDir: "/tmp/s" });
  });

  it("reads a bare entry as one with no options, and leaves other plug-ins and other folders out", () => {
    const layers = [{ type: "document", path: "/p/opencode.json", info: { plugins: ["opencode-rcm", "./elsewhere", { package: "/other/dir" }, 7, null] } }];
    expect(rcmEntries(layers, PACKAGE_DIR)).toEqual([["opencode-rcm", undefined]]);
    expect(pluginTupleOptions(rcmEntries(layers, PACKAGE_DIR), PACKAGE_DIR)).toBeUndefined();
  });
});
