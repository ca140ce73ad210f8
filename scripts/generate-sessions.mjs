#!/usr/bin/env node
// Writes metamorphic labelled sessions for route-eval as JSONL on stdout: synthetic
// everyday sessions, every request labelled with its task and its style.
// Build first: npm run build && node scripts/generate-sessions.mjs --seed 1 --sessions 60 > out.jsonl
// then: node dist/cli.js route-eval out.jsonl
import { parseArgs } from "node:util";
import { generateSessions } from "../dist/dev/generate-sessions.js";

const { values } = parseArgs({ options: { seed: { type: "string", default: "1" }, sessions: { type: "string", default: "60" } } });
const seed = Number(values.seed);
const sessions = Number(values.sessions);
if (!Number.isInteger(seed) || !Number.isInteger(sessions) || sessions < 1) {
  console.error("usage: node scripts/generate-sessions.mjs --seed <integer> --sessions <count>");
  process.exit(2);
}
for (const session of generateSessions({ seed, sessions })) process.stdout.write(`${JSON.stringify(session)}\n`);
