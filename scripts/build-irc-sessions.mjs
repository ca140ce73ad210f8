#!/usr/bin/env node
// Builds route-eval's labelled sessions from the IRC disentanglement corpus (Kummerfeld et al.,
// ACL 2019, Ubuntu; Gouravajhala et al., ALTA 2023, four other channels; data CC-BY-4.0) read
// straight from a git snapshot of github.com/jkkummerfeld/irc-disentanglement (a bare git
// directory is enough). One session per annotated file; the rules are in
// src/dev/irc/irc-sessions.ts. Writes, per split, <split>.jsonl (the sessions) and
// <split>.gold.json (every annotated line's gold, system lines too), plus README.md and
// manifest.json, to a folder outside this repository: nothing from the corpus is committed here.
// Build first:
//   npm run build && node scripts/build-irc-sessions.mjs --snapshot <git dir> [--out ../rcm-data/irc]
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildIrcSession, IRC_REPO } from "../dist/dev/irc/irc-sessions.js";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { snapshot: { type: "string" }, out: { type: "string", default: resolve(root, "..", "rcm-data", "irc") } },
  strict: true,
});
if (!values.snapshot) {
  console.error("usage: node scripts/build-irc-sessions.mjs --snapshot <git dir of jkkummerfeld/irc-disentanglement> [--out <dir>]");
  process.exit(2);
}
const out = resolve(values.out);
if (!relative(root, out).startsWith("..")) {
  console.error(`--out ${out} is inside this repository: the corpus's text must stay outside it`);
  process.exit(2);
}

const git = (...args) => execFileSync("git", ["--git-dir", values.snapshot, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
const commit = git("rev-parse", "HEAD").trim();
const listed = git("ls-tree", "-r", "--name-only", commit, "--", "data").split("\n").filter(Boolean);

const ACL19 =
  "Kummerfeld, Gouravajhala, Peper, Athreya, Gunasekara, Ganhotra, Patel, Polymenakos and Lasecki, A Large-Scale Corpus for Conversation Disentanglement, ACL 2019";
const ALTA23 =
  "Gouravajhala, Vernier, Shi, Li, Ackerman and Kummerfeld, Chat Disentanglement: Data for New Domains and Methods for More Accurate Annotation, ALTA 2023";
const SPLITS = [
  { name: "ubuntu-train", folder: "data/train/", paper: ACL19 },
  { name: "ubuntu-dev", folder: "data/dev/", paper: ACL19 },
  { name: "ubuntu-test", folder: "data/test/", paper: ACL19 },
  ...["mediawiki", "rust", "stripe", "ubuntu-meeting"].map((channel) => ({ name: channel, folder: `data/new-domains/${channel}.`, paper: ALTA23 })),
];
const blob = (path) => `https://github.com/${IRC_REPO}/blob/${commit}/${path}`;

mkdirSync(out, { recursive: true });
const manifest = { repo: IRC_REPO, commit, licence: "CC-BY-4.0 (data/LICENSE-data.txt)", splits: [] };
for (const split of SPLITS) {
  const annotations = listed.filter((path) => path.startsWith(split.folder) && path.endsWith(".annotation.txt")).sort();
  if (annotations.length === 0) throw new Error(`${values.snapshot}: no ${split.folder}*.annotation.txt at ${commit}`);
  const sessions = [];
  const golds = [];
  const total = {};
  for (const annotationFile of annotations) {
    const stem = annotationFile.slice(0, -".annotation.txt".length);
    const file = `${stem}.ascii.txt`;
    const built = buildIrcSession({
      id: `${split.name}/${stem.split("/").pop()}`,
      file,
      log: git("show", `${commit}:${file}`),
      annotation: git("show", `${commit}:${annotationFile}`),
      annotationFile,
      fileURL: blob(file),
      lineURL: (line) => `${blob(file)}#L${line + 1}`,
      description: (counts) =>
        `IRC disentanglement corpus: ${split.paper}; data CC-BY-4.0; ${IRC_REPO} at ${commit}, ${file}: ` +
        `annotated lines ${counts.contextLines}-${counts.contextLines + counts.annotatedLines - 1} (0-based) after ${counts.contextLines} context lines, which are left out. ` +
        `Requests: the annotated messages in order (${counts.requests}), with speakers, times and leading addressees removed; ${counts.systemLines} system lines and ${counts.emptyMessages} empty messages left out. ` +
        `Task: the gold conversation (a connected component of the reply-to links).`,
    });
    sessions.push(built.session);
    golds.push(built.gold);
    for (const [key, value] of Object.entries(built.counts)) total[key] = (total[key] ?? 0) + value;
  }
  writeFileSync(join(out, `${split.name}.jsonl`), sessions.map((session) => `${JSON.stringify(session)}\n`).join(""));
  writeFileSync(join(out, `${split.name}.gold.json`), `${JSON.stringify({ repo: IRC_REPO, commit, split: split.name, sessions: golds })}\n`);
  manifest.splits.push({ name: split.name, paper: split.paper, sessions: sessions.length, ...total });
  console.log(
    `${split.name}: ${sessions.length} sessions, ${total.requests} requests, ${total.conversations} conversations (${total.conversationsFromContext} from the context), ` +
      `${total.systemLines} system lines and ${total.emptyMessages} empty messages left out, ${total.addressesStripped} addressees stripped (${total.addressOnly} address-only kept)`,
  );
}
writeFileSync(join(out, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(join(out, "README.md"), readme(manifest));
console.log(`wrote ${out} (${IRC_REPO} at ${commit})`);

function readme(manifest) {
  const rows = manifest.splits.map(
    (split) =>
      `| ${split.name} | ${split.sessions} | ${split.annotatedLines} | ${split.requests} | ${split.systemLines} | ${split.emptyMessages} | ${split.actions} | ${split.notices} | ${split.conversations} | ${split.conversationsFromContext} | ${split.addressesStripped} | ${split.addressOnly} |`,
  );
  return `# IRC disentanglement sessions (generated: do not commit)

Built by opencode-rcm's \`scripts/build-irc-sessions.mjs\` from the IRC disentanglement corpus,
github.com/${manifest.repo} at commit ${manifest.commit}. The data is licensed CC-BY-4.0
(the corpus's data/LICENSE-data.txt); this folder is a derived version of it, changed as said below.

- Ubuntu (ubuntu-train, ubuntu-dev, ubuntu-test): ${ACL19}.
- Other channels (mediawiki, rust, stripe, ubuntu-meeting; data/new-domains): ${ALTA23}.

Files: \`<split>.jsonl\` holds route-eval's labelled sessions, one per annotated file of the
corpus; \`<split>.gold.json\` every annotated line's gold conversation (system lines and
empty messages too, which are no requests) and the request it became; \`manifest.json\` the counts below.

What was changed: the text is the corpus's \`.ascii.txt\` version; the 1,000 context lines before
each file's annotated window carry no gold and are left out; speakers (\`<nick>\`, an action's
or a notice's name) and times are removed, and so are leading addressees (\`nick:\`, \`nick,\`,
\`@nick\`, several in a row) naming someone seen in the file, unless the message is nothing
else; system lines (joins, leaves, renames, modes) and messages with no text are left out. Everything else is verbatim
(surrounding whitespace trimmed). A request's \`task\` is its gold conversation (the connected
component of the reply-to links, through context lines too), named \`c<its first annotated
line>\`; \`style\` is \`opening\` (the conversation's first request, begun in the window),
\`from-context\` (its first request, the conversation begun in the context) or \`reply\`;
\`source\` is the line's address in the corpus.

| split | sessions | annotated lines | requests | system lines | empty messages | actions | notices | conversations | from context | addressees stripped | address only |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`;
}
