// The layering rules `npm test` enforces (`npm run deps`). Each names what it keeps apart and why.

// The floor plan of src/, lowest first: a folder on a floor may import its own floor and the
// floors below it, never one above. src/ shows the plan's three parts at a glance: src/kit (the
// ground floor), src/plugin (what the installed plug-in runs: every floor up to "host"), src/lab
// (what measures it: the scripted model, the harness, the evaluations, the bench, the demo),
// then the CLI on top of both, and src/dev, never shipped, above everything.
const FLOORS = [
  { name: "ground", folders: ["kit"], why: "kits every floor may use: the error type, messageOf, the package root and its entry points" },
  { name: "core", folders: ["plugin/core"], why: "the pure heart: routing, memory and context assembly, no I/O, no host" },
  { name: "config", folders: ["plugin/config"], why: "the plug-in's options and where they come from" },
  { name: "store", folders: ["plugin/store"], why: "the state files on disk: ledgers, records, markers, stored sessions" },
  { name: "auxiliary", folders: ["plugin/auxiliary"], why: "the aux model's transport and the router and updater built on it" },
  { name: "session-views", folders: ["plugin/session-views"], why: "a session's state in words and lines for people: answers, toasts, the panel" },
  { name: "sessions", folders: ["plugin/sessions"], why: "the sessions' state, routing, memory and splits, and the ports a host fills (host.ts)" },
  { name: "handlers", folders: ["plugin/handlers"], why: "what the plug-in does at a host's events: each model call, /rcm, the tool gates; host-neutral" },
  { name: "host", folders: ["plugin/hosts"], why: "one folder per host: OpenCode 1.18's and OpenCode 2's hooks, clients, TUI APIs and types stop here (hosts/README.md)" },
  { name: "lab-kits", folders: ["lab/jsonl", "lab/svg"], why: "JSON lines and SVG drawing, for the evaluations and the bench" },
  { name: "scripted-model", folders: ["lab/scripted-model"], why: "the offline model server the bench and the tests drive OpenCode with" },
  { name: "harness", folders: ["lab/harness"], why: "starting the real OpenCode in private homes, for the bench, the demo and the tests" },
  { name: "evaluations", folders: ["lab/route-eval", "lab/memory-eval"], why: "measuring the router and the memory on labelled data" },
  { name: "bench", folders: ["lab/bench"], why: "the Switch-SWE driver: it reaches the plug-in only through OpenCode" },
  { name: "demo", folders: ["lab/demo"], why: "the scripted demo session" },
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

// The bench's layers, lowest first: a folder of src/lab/bench may import its own layer and the ones
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

/** `^src/lab/bench/(a|b)/` */
const benchFolders = (folders) => `^src/lab/bench/(${folders.join("|")})/`;

const benchLayerRules = BENCH_LAYERS.map((layer, index) => ({
  name: `bench-layer-${layer.name}`,
  comment: `src/lab/bench/{${layer.folders.join(",")}} (${layer.why}) imports only its own layer and those below it: ${BENCH_LAYERS.slice(0, index + 1).flatMap((below) => below.folders).join(", ")}.`,
  severity: "error",
  from: { path: benchFolders(layer.folders) },
  to: { path: "^src/lab/bench/", pathNot: benchFolders(BENCH_LAYERS.slice(0, index + 1).flatMap((below) => below.folders)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-only-core",
      comment: "src/plugin/core is the pure heart (routing, memory, context assembly): it must not know OpenCode, the CLI, the bench or the aux transport.",
      severity: "error",
      from: { path: "^src/plugin/core/" },
      to: { path: "^src/", pathNot: "^src/plugin/core/" },
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
      comment: "A new folder of src/, src/plugin or src/lab gets its floor in FLOORS first: where it stands decides what it may import. Nothing sits loose in src/plugin or src/lab.",
      severity: "error",
      from: { path: "^src/[^/]+/", pathNot: srcFolders(ALL_FOLDERS) },
      to: { path: "^src/" },
    },
    {
      name: "host-parts-apart",
      comment: "Each host has its own folder, and a host's parts load in different runtimes (OpenCode 1.18's server part in a worker, its TUI part in the TUI): no part imports another part or another host; what they share lives below src/plugin/hosts.",
      severity: "error",
      from: { path: "^src/plugin/hosts/([^/]+/[^/]+)/" },
      to: { path: "^src/plugin/hosts/", pathNot: "^src/plugin/hosts/$1/" },
    },
    {
      name: "opencode-only-in-hosts",
      comment:
        "The seam: OpenCode's plug-in API, client and SDK types, and the TUI's own runtime (OpenTUI and Solid, which both hosts map to their instances), are used in src/plugin/hosts only; below it sessions, routing, memory and the panel's views are host-neutral.",
      severity: "error",
      from: { path: "^src/plugin/", pathNot: "^src/plugin/hosts/" },
      to: { path: "(^|node_modules/)(@opencode-ai/|@opentui/|solid-js($|/))" },
    },
    {
      name: "lab-reaches-plugin-through-opencode",
      comment: "The bench, the demo and the evaluations load the built plug-in into the real OpenCode; importing its sessions, handlers or hosts would measure something OpenCode never runs.",
      severity: "error",
      from: { path: "^src/lab/" },
      to: { path: "^src/plugin/(sessions|handlers|hosts)/" },
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
    enhancedResolveOptions: { extensions: [".ts", ".js"], conditionNames: ["import", "types", "default"] },
  },
};
