import { describe, expect, it } from "vitest";
import { createFailOpenGuard } from "../../src/plugin/sessions/fail-open-guard.js";
import type { Logger, LogLevel } from "../../src/plugin/sessions/logger.js";

function recordingLogger() {
  const lines: { level: LogLevel; message: string; extra?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    async log(level, message, extra) {
      lines.push({ level, message, ...(extra ? { extra } : {}) });
    },
  };
  return { logger, lines };
}

describe("createFailOpenGuard", () => {
  it("swallows an exception so the hook resolves", async () => {
    const { logger } = recordingLogger();
    const guard = createFailOpenGuard(logger);
    await expect(guard("transform", "s1", () => Promise.reject(new Error("boom")))).resolves.toBeUndefined();
  });

  it("logs the first failure of a session and hook once, with the error", async () => {
    const { logger, lines } = recordingLogger();
    const guard = createFailOpenGuard(logger);
    for (let i = 0; i < 3; i++)
      await guard("transform", "s1", () => {
        throw new Error("boom");
      });
    await guard("transform", "s2", () => {
      throw new Error("boom");
    });
    expect(lines.map((line) => [line.level, line.extra?.sessionID])).toEqual([
      ["error", "s1"],
      ["error", "s2"],
    ]);
    expect(String(lines[0]?.extra?.error)).toContain("boom");
  });

  it("runs the body and logs nothing when it succeeds", async () => {
    const { logger, lines } = recordingLogger();
    let ran = false;
    await createFailOpenGuard(logger)("event", undefined, () => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(lines).toEqual([]);
  });
});
