// The layering rules `npm test` enforces (`npm run deps`). Each names what it keeps apart and why.

// The floor plan of src/, lowest first: a top-level folder may import its own floor and the
// floors below it, never one above. The installed plug-in runs floors "ground" to "plug-in";
// the CLI (which also runs the benchmark and the evaluations) sits on top.
const FLOORS = [
  { name: "ground", folders: ["errors", "jsonl", "svg", "kit"], why: "kits every floor may use: the error type, JSON lines, SVG drawing, the package root" },
  { name: "core", folders: ["core"], why: "the pure heart: routing, memory and context assembly, no I/O" },
  { name: "config", folders: ["config"], why: "the plug-in's options and where they come from" },
  { name: "store", folders: ["store"], why: "the state files on disk: ledgers, records, markers, stored sessions" },
  { name: "auxiliary", folders: ["auxiliary"], why: "the aux model's transport and the router and updater built on it" },
  { name: "session-views", folders: ["session-views"], why: "a session's state in words and lines for people" },
  { name: "plug-in", folders: ["plugin", "tui"], why: "the installed plug-in's server and TUI parts (apart from each other: see below)" },
  { name: "scripted-model", folders: ["scripted-model"], why: "the offline model server the bench and the tests drive OpenCode with" },
  { name: "harness", folders: ["harness"], why: "starting the real OpenCode in private homes, for the bench, the demo and the tests" },
  { name: "evaluations", folders: ["route-eval", "memory-eval"], why: "measuring the router and the memory on labelled data (route-eval, memory-eval)" },
  { name: "bench", folders: ["bench"], why: "the Switch-SWE driver: it reaches the plug-in only through OpenCode" },
  { name: "demo", folders: ["demo"], why: "the scripted demo session" },
  { name: "commands", folders: ["cli"], why: "the CLI's commands (cli/sessions: the /rcm verbs from a shell), on top of everything they run" },
  // On top, so nothing shipped can import it; the package leaves dist/dev out.
  { name: "dev", folders: ["dev"], why: "development only: fitting the router, generating and checking corpora, the redaction eval, writing the JSON schemas (for scripts/, never shipped)" },
];

/** `^src/(a|b)/` */
const srcFolders = (folders) => `^src/(${folders.join("|")})/`;
const ALL_FOLDERS = FLOORS.flatMap((floor) => floor.folders);

const floorRules = FLOORS.map((floor, index) => ({
  name: `floor-${floor.name}`,
  comment: `src/{${floor.folders.join(",")}} (${floor.why}) imports only its own floor and those below it: ${FLOORS.slice(0, index + 1).flatMap((below) => below.folders).join(", ")}.`,
  severity: "error",
  from: { path: srcFolders(floor.folders) },
  to: { path: "^src/", pathNot: srcFolders(FLOORS.slice(0, index + 1).flatMap((below) => below.folders)) },
}));

// The bench's layers, lowest first: a folder of src/bench may import its own layer and the ones
// below it, never one above (the root files, run-bench.ts and the commands, are the top).
// suite and patch data, and a run directory's data, at the bottom; the report on top.
const BENCH_LAYERS = [
  { name: "patch", folders: ["patch"], why: "patch helpers" },
  { name: "suite", folders: ["suite"], why: "a suite's tasks, sessions and request texts, and the names of conditions and localities" },
  { name: "run-dir", folders: ["run-dir"], why: "a run directory's files and line shapes (results.jsonl, run.json, recorded calls)" },
  { name: "work", folders: ["checkout", "score", "agent"], why: "checkouts, scoring and the scripted agents, each from the suite alone" },
  { name: "check", folders: ["check"], why: "checking a suite's ground truth (its files, then its tests) before it is run" },
  { name: "env", folders: ["env"], why: "where a session runs and is scored (here or in docker)" },
  { name: "drive", folders: ["drive"], why: "sending a session to OpenCode with an agent" },
  { name: "metrics", folders: ["metrics"], why: "what a finished session measured" },
  { name: "results", folders: ["results"], why: "summaries and tables of result lines, the markdown report" },
  { name: "report-html", folders: ["report-html"], why: "the charts and the HTML page" },
  { name: "report", folders: ["report"], why: "writing a run's report.md and report.html" },
  { name: "swebench", folders: ["swebench"], why: "SWE-bench interop: instances in, predictions out, reports back" },
];

/** `^src/bench/(a|b)/` */
const benchFolders = (folders) => `^src/bench/(${folders.join("|")})/`;

const benchLayerRules = BENCH_LAYERS.map((layer, index) => ({
  name: `bench-layer-${layer.name}`,
  comment: `src/bench/{${layer.folders.join(",")}} (${layer.why}) imports only its own layer and those below it: ${BENCH_LAYERS.slice(0, index + 1).flatMap((below) => below.folders).join(", ")}.`,
  severity: "error",
  from: { path: benchFolders(layer.folders) },
  to: { path: "^src/bench/", pathNot: benchFolders(BENCH_LAYERS.slice(0, index + 1).flatMap((below) => below.folders)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-only-core",
      comment: "src/core is the pure heart (routing, memory, context assembly): it must not know OpenCode, the CLI, the bench or the aux transport.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/", pathNot: "^src/core/" },
    },
    {
      name: "no-test-support-in-src",
      comment: "Shipped code never imports the tests or their support.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^test/" },
    },
    {
      name: "no-dev-dependencies-in-src",
      comment: "What ships runs without the devDependencies.",
      severity: "error",
      from: { path: "^src/" },
      to: { dependencyTypes: ["npm-dev"] },
    },
    {
      name: "plugin-sessions-below-hooks",
      comment: "The session store, routing and memory know nothing of the hooks that use them or of the composition root.",
      severity: "error",
      from: { path: "^src/plugin/sessions/" },
      to: { path: "^src/plugin/", pathNot: "^src/plugin/sessions/" },
    },
    {
      name: "plugin-hooks-below-root",
      comment: "Hook handlers get what they need from the composition root (index.ts), never import it.",
      severity: "error",
      from: { path: "^src/plugin/hooks/" },
      to: { path: "^src/plugin/[^/]+$" },
    },
    {
      name: "auxiliary-below-plugin",
      comment: "The aux transport and the router/updater built on it serve the plug-in and the eval commands alike: they never import either.",
      severity: "error",
      from: { path: "^src/auxiliary/" },
      to: { path: "^src/(plugin|route-eval|bench|tui)/" },
    },
    {
      name: "no-circular",
      comment: "No module reaches itself through its imports (type-only imports count: they tie the modules' design together).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    // The floor plan (FLOORS above), and what it cannot say by order alone.
    ...floorRules,
    {
      name: "every-folder-on-the-plan",
      comment: "A new top-level folder of src/ gets its floor in FLOORS first: where it stands decides what it may import.",
      severity: "error",
      from: { path: "^src/[^/]+/", pathNot: srcFolders(ALL_FOLDERS) },
      to: { path: "^src/" },
    },
    {
      name: "plugin-parts-apart",
      comment: "The server part and the TUI part load in different runtimes (a worker and the TUI): neither imports the other; what both need lives below them.",
      severity: "error",
      from: { path: "^src/(plugin|tui)/" },
      to: { path: "^src/(plugin|tui)/", pathNot: "^src/$1/" },
    },
    {
      name: "bench-reaches-plugin-through-opencode",
      comment: "The bench loads the built plug-in into the real OpenCode; importing it would measure something OpenCode never runs.",
      severity: "error",
      from: { path: "^src/bench/" },
      to: { path: "^src/(plugin|tui)/" },
    },
    // The bench's layers (BENCH_LAYERS above).
    ...benchLayerRules,
    {
      name: "no-folder-cycles",
      comment: "No folder of src reaches itself through its folders' imports (folder scope: a loop between folders, not only between modules): each folder is a layer a reader can take in on its own.",
      severity: "error",
      scope: "folder",
      from: { path: "^src" },
      to: { circular: true },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
