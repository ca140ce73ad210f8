#!/usr/bin/env node
// Checks the routing corpus (fixtures/routing-corpus/{train,dev,test}, or the directories or
// files given) against the rules it is written to, and prints its size per split and shape.
// Build first: npm run build.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { checkCorpus } from "../dist/dev/check-corpus.js";
import { readLabelledSessionFiles } from "../dist/lab/route-eval/labelled-sessions.js";

const root = join(import.meta.dirname, "..", "fixtures", "routing-corpus");
const paths = process.argv.slice(2);
const targets = paths.length > 0 ? paths : ["train", "dev", "test"].map((name) => join(root, name)).filter((dir) => existsSync(dir));
const splits = [];
for (const path of targets) splits.push({ name: basename(path), files: await readLabelledSessionFiles(path) });
const { problems, splits: stats } = checkCorpus(splits);
for (const split of stats) {
  const { switch: sw, everyday } = split.shapes;
  console.log(
    `${split.name}: ${split.sessions} sessions, ${split.requests} requests, ${split.repos.length} repos (${split.repos.join(", ")}); ` +
      `switch ${sw.sessions}/${sw.requests}, everyday ${everyday.sessions}/${everyday.requests}, shared ${split.shared}`,
  );
}
for (const problem of problems) console.error(`problem: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
