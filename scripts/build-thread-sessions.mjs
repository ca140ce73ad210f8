#!/usr/bin/env node
// Materialises the real-thread sets (fixtures/routing-threads, fixtures/routing-threads-dev) from
// their references and the fetched snapshots, outside the repository: <out>/routing-threads/sessions.jsonl
// and <out>/routing-threads-dev/sessions.jsonl. Every text is checked against its sha256.
// Build first: npm run build, then
//   node scripts/build-thread-sessions.mjs --snapshot zaniebot/unmaintain-rendered=<git dir> \
//     --snapshot brson/rust-issue-archive=<git dir> [--out <dir>]
// --out defaults to $OPENCODE_RCM_DATA, else ../rcm-data beside the repository root.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildThreadSets, parseSnapshotArguments } from "../dist/dev/thread-sessions/build-thread-sets.js";
import { materialisedDataDir } from "../dist/dev/thread-sessions/thread-references.js";

const root = join(import.meta.dirname, "..");
const usage = "usage: node scripts/build-thread-sessions.mjs --snapshot <owner/name>=<git dir>... [--out <dir>]";
let values;
try {
  ({ values } = parseArgs({ options: { snapshot: { type: "string", multiple: true, default: [] }, out: { type: "string" } }, strict: true }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
try {
  const gitDirs = parseSnapshotArguments(values.snapshot);
  const outDir = resolve(values.out ?? materialisedDataDir(root));
  for (const built of await buildThreadSets({ root, gitDirs, outDir })) {
    console.log(`${built.set}: ${built.sessions} sessions, ${built.requests} requests, every text verified -> ${built.file}`);
  }
} catch (error) {
  console.error(`build-thread-sessions: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
