// Two real processes marking tasks at once, with this process marking too: no mark is lost.
// An e2e test: the children run the built store (dist/), as the CLI's processes do.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markTask, readTaskMarks } from "../../src/plugin/store/task-marks.js";
import { makeTempDir } from "../support/temp-dir.js";

const run = promisify(execFile);
const BUILT = pathToFileURL(join(import.meta.dirname, "../../dist/plugin/store/task-marks.js")).href;
const EACH = 40;

// One child: marks EACH tasks of its own session one after the other, as fast as it can.
const CHILD = `
const { markTask } = await import(${JSON.stringify(BUILT)});
const [stateDir, sessionID] = process.argv.slice(1);
for (let index = 0; index < ${EACH}; index += 1) await markTask(stateDir, { sessionID, taskId: "t" + index, mark: "dropped", at: new Date() });
`;

let temp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  temp = await makeTempDir("rcm-marks-processes");
});
afterEach(async () => {
  await temp.remove();
});

describe("task marks written by several processes at once", () => {
  it("keeps every mark of two child processes and of this one", async () => {
    const child = (sessionID: string) => run(process.execPath, ["--input-type=module", "-e", CHILD, temp.path, sessionID], { timeout: 60_000 });
    const here = async () => {
      for (let index = 0; index < EACH; index += 1) await markTask(temp.path, { sessionID: "ses_here", taskId: `t${index}`, mark: "done", at: new Date() });
    };
    await Promise.all([child("ses_one"), child("ses_two"), here()]);
    const { marks, problem } = await readTaskMarks(temp.path);
    expect(problem).toBeUndefined();
    expect(Object.keys(marks)).toHaveLength(3 * EACH);
    for (const sessionID of ["ses_one", "ses_two"]) expect(marks[`${sessionID}/t${EACH - 1}`]?.mark).toBe("dropped");
    expect(marks[`ses_here/t0`]?.mark).toBe("done");
  });
});
