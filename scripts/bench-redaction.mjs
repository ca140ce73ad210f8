// Redaction speed on a 12k-token auxiliary request (about 48,000 characters), under Node and
// under OpenCode's own Bun (the runtime the plug-in has there), side by side, on two texts:
// - session: what the model memory updater sends, the digests of recorded OpenCode sessions
//   (fixtures/sessions), with six secrets-world positives pasted in;
// - adversarial: secrets-world lines only (near-secrets, one real secret in twenty).
// Build first: npm run build && node scripts/bench-redaction.mjs [--runs 60]
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packageRoot } from "../dist/kit/package-root.js";
import { opencodeBinary } from "../dist/lab/harness/opencode-binary.js";
import { toInteractionGroups } from "../dist/plugin/core/interaction-groups.js";
import { truncateDigest } from "../dist/plugin/core/memory/batches.js";
import { digestGroups } from "../dist/plugin/core/memory/group-digest.js";
import { redactSecrets } from "../dist/plugin/core/redaction/redact-secrets.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "60" }, child: { type: "boolean", default: false } } });
const RUNS = Number(values.runs);
const TARGET_CHARS = 48_000;

const read = (name) =>
  readFileSync(join(packageRoot(), "fixtures", "secrets-world", name), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

function sessionRequest() {
  const dir = join(packageRoot(), "fixtures", "sessions");
  const digests = readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .flatMap((file) => {
      const messages = JSON.parse(readFileSync(join(dir, file), "utf8")).sessions.main;
      return digestGroups(messages, toInteractionGroups(messages)).map((group) => JSON.stringify(truncateDigest(group), null, 1));
    });
  const positives = read("positives.jsonl");
  const parts = [];
  let chars = 0;
  for (let index = 0; chars < TARGET_CHARS; index += 1) {
    const part = digests[index % digests.length];
    parts.push(part);
    chars += part.length + 2;
  }
  for (let index = 0; index < 6; index += 1) parts.splice(1 + index * 3, 0, positives[index * 37].context);
  return parts.join("\n\n").slice(0, TARGET_CHARS);
}

function adversarialRequest() {
  const negatives = read("negatives.jsonl");
  const positives = read("positives.jsonl");
  const prose = "The agent ran the tests again after the edit; two of them still fail because the fixture path changed.";
  const parts = [];
  let chars = 0;
  for (let index = 0; chars < TARGET_CHARS; index += 1) {
    // Mostly ordinary text; one positive in twenty, as in a session that touched config.
    const part = index % 20 === 19 ? positives[index % positives.length].context : `${negatives[index % negatives.length].context}\n${prose}`;
    parts.push(part);
    chars += part.length + 2;
  }
  return parts.join("\n\n");
}

async function measure(text) {
  for (let warm = 0; warm < 5; warm += 1) await redactSecrets(text);
  const times = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await redactSecrets(text);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { chars: text.length, median: times[Math.floor(RUNS / 2)], p90: times[Math.floor(RUNS * 0.9)] };
}

const measureBoth = async () => ({ session: await measure(sessionRequest()), adversarial: await measure(adversarialRequest()) });

if (values.child) {
  console.log(JSON.stringify(await measureBoth()));
} else {
  const node = await measureBoth();
  const bun = spawnSync(opencodeBinary(), [fileURLToPath(import.meta.url), "--child", "--runs", String(RUNS)], {
    env: { ...process.env, BUN_BE_BUN: "1" },
    encoding: "utf8",
  });
  if (bun.status !== 0) throw new Error(`bench-redaction under OpenCode's Bun failed: ${bun.stderr}`);
  const inBun = JSON.parse(bun.stdout.trim().split("\n").at(-1));
  const row = (label, result) =>
    `  ${label.padEnd(28)} ${String(result.chars).padStart(6)} chars   median ${result.median.toFixed(2).padStart(6)} ms   p90 ${result.p90.toFixed(2).padStart(6)} ms`;
  console.log(`redaction of a ~12k-token aux request, ${RUNS} runs each (target: median <= 5 ms)`);
  console.log(row(`session, node ${process.versions.node}`, node.session));
  console.log(row("session, OpenCode's bun", inBun.session));
  console.log(row(`adversarial, node`, node.adversarial));
  console.log(row("adversarial, OpenCode's bun", inBun.adversarial));
}
