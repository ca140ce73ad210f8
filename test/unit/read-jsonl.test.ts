import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { atLine, firstIssue, jsonlLines, parseJsonl, readJsonl } from "../../src/lab/jsonl/read-jsonl.js";
import { makeTempDir } from "../support/temp-dir.js";

describe("JSON lines", () => {
  it("numbers the non-blank lines from 1, drops a \\r before the newline, and marks the text's last line", () => {
    expect(jsonlLines('{"a":1}\r\n\n  \n{"b":2}\n{"c"')).toEqual([
      { line: 1, text: '{"a":1}', last: false },
      { line: 4, text: '{"b":2}', last: false },
      { line: 5, text: '{"c"', last: true },
    ]);
    expect(jsonlLines('{"a":1}\n').map((line) => line.last)).toEqual([false]);
  });

  it("parses each line, or says why it is not JSON", () => {
    const [good, bad] = parseJsonl('{"a":1}\nnope\n');
    expect(good).toEqual({ line: 1, text: '{"a":1}', last: false, ok: true, value: { a: 1 } });
    expect(bad).toMatchObject({ line: 2, ok: false });
    expect(bad?.ok === false && bad.reason).toMatch(/JSON/);
  });

  it("names a bad line as file:line: problem, with a schema's first complaint", () => {
    const parsed = z.object({ a: z.object({ b: z.number() }) }).safeParse({ a: { b: "x" } });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(atLine("f.jsonl", 3, firstIssue(parsed.error))).toMatch(/^f\.jsonl:3: a\.b: /);
    const whole = z.object({}).strict().safeParse(5);
    if (!whole.success) expect(firstIssue(whole.error)).toMatch(/^\(line\): /);
  });

  describe("from a file", () => {
    let temp: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      temp = await makeTempDir("rcm-jsonl");
    });
    afterEach(async () => temp.remove());

    it("reads and parses it; a missing file is the read's own error", async () => {
      await writeFile(join(temp.path, "a.jsonl"), '{"x":1}\n\n{"x":2}\n');
      expect((await readJsonl(join(temp.path, "a.jsonl"))).map((entry) => [entry.line, entry.ok && entry.value])).toEqual([
        [1, { x: 1 }],
        [3, { x: 2 }],
      ]);
      await expect(readJsonl(join(temp.path, "none.jsonl"))).rejects.toMatchObject({ code: "ENOENT" });
    });
  });
});
