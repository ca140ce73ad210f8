import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { MessageWithParts } from "../../src/plugin/core/messages.js";

const DIR = join(import.meta.dirname, "..", "..", "fixtures", "sessions");

export interface SessionFixture {
  recordedWith: string;
  scenario: string;
  description: string;
  /** `main`, and `child1`... for sub-agent sessions. */
  sessions: Record<string, MessageWithParts[]>;
  /** What `experimental.chat.messages.transform` received at each model call of `main`. */
  transformCalls: MessageWithParts[][];
}

/** A message history recorded from a real OpenCode run by scripts/record-fixtures.mjs. */
export function loadFixture(name: string): SessionFixture {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")) as SessionFixture;
}

export function fixtureNames(): string[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();
}

export function mainSession(name: string): MessageWithParts[] {
  const session = loadFixture(name).sessions.main;
  if (!session) throw new Error(`fixture ${name} has no main session`);
  return session;
}
