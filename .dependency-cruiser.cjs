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
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
