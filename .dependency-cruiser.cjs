// The layering rules `npm test` enforces (`npm run deps`). Each names what it keeps apart and why.
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
      name: "no-circular",
      comment: "No module reaches itself through its imports (type-only imports count: they tie the modules' design together).",
      severity: "error",
      from: {},
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
