import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// OpenCode runs on Windows too, where a file or folder named CON, PRN, AUX, NUL, COM1-9 or
// LPT1-9 (with any extension), or one with <>:"|?* in it or ending in a dot or a space,
// cannot be checked out or unpacked. Every tracked path must avoid them.
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

function problem(segment: string): string | undefined {
  if (RESERVED.test(segment)) return "a reserved device name";
  if (/[<>:"|?*]/.test(segment)) return "a character Windows forbids";
  if (/[. ]$/.test(segment)) return "a trailing dot or space";
  return undefined;
}

describe("the repository's paths", () => {
  it("can all be checked out on Windows", () => {
    const root = join(import.meta.dirname, "..", "..");
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const bad = files.flatMap((file) => file.split("/").flatMap((segment) => (problem(segment) ? [`${file}: "${segment}" is ${problem(segment)}`] : [])));
    expect(bad).toEqual([]);
    expect(problem("aux")).toBeDefined();
    expect(problem("AUX.ts")).toBeDefined();
    expect(problem("aux-client.ts")).toBeUndefined();
  });
});
