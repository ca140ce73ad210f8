// The code's structure at folder level, from dependency-cruiser's own cruise of src
// (`npm run structure`): each folder with its files and lines, the import arrows between
// folders, the arrows that close a loop between folders, the largest files and the largest
// functions (named functions, methods and functions assigned to a name, by their lines).
// `--json` prints the same as JSON (for a before/after diff).
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { cruise } from "dependency-cruiser";
import ts from "typescript";

const json = process.argv.includes("--json");
const result = await cruise(["src"], {
  tsConfig: { fileName: "tsconfig.json" },
  tsPreCompilationDeps: true,
  doNotFollow: { path: "node_modules" },
  includeOnly: "^src/",
  enhancedResolveOptions: { extensions: [".ts", ".js"] },
});
/** @type {{ source: string, dependencies: { resolved: string }[] }[]} */
const modules = /** @type {any} */ (result.output).modules.filter((/** @type {{ source: string }} */ module) => module.source.startsWith("src/"));

const folderOf = (/** @type {string} */ file) => dirname(file);
const lines = (/** @type {string} */ file) => readFileSync(file, "utf8").split("\n").length - 1;

/** @type {Map<string, { files: number, lines: number }>} */
const folders = new Map();
/** @type {Map<string, number>} */
const arrows = new Map();
for (const module of modules) {
  const from = folderOf(module.source);
  const entry = folders.get(from) ?? { files: 0, lines: 0 };
  entry.files += 1;
  entry.lines += lines(module.source);
  folders.set(from, entry);
  for (const dependency of module.dependencies) {
    if (!dependency.resolved.startsWith("src/")) continue;
    const to = folderOf(dependency.resolved);
    if (to === from) continue;
    const key = `${from} -> ${to}`;
    arrows.set(key, (arrows.get(key) ?? 0) + 1);
  }
}

// Folder loops: strongly connected components of the folder graph with more than one folder.
/** @type {Map<string, string[]>} */
const next = new Map();
for (const key of arrows.keys()) {
  const [from, to] = key.split(" -> ");
  next.set(from, [...(next.get(from) ?? []), to]);
}
const loops = stronglyConnected([...folders.keys()], (folder) => next.get(folder) ?? []).filter((component) => component.length > 1);
const inLoop = new Set(loops.flat());
const loopArrows = [...arrows.keys()].filter((key) => {
  const [from, to] = key.split(" -> ");
  return loops.some((component) => component.includes(from) && component.includes(to));
});

const largest = modules
  .map((module) => ({ file: module.source, lines: lines(module.source) }))
  .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
  .slice(0, 10);
const largestFunctions = modules
  .flatMap((module) => functionsOf(module.source))
  .sort((a, b) => b.lines - a.lines || a.name.localeCompare(b.name))
  .slice(0, 10);
const totals = {
  folders: folders.size,
  files: modules.length,
  lines: [...folders.values()].reduce((sum, folder) => sum + folder.lines, 0),
  arrows: arrows.size,
};

if (json) {
  console.log(
    JSON.stringify(
      { totals, folders: Object.fromEntries([...folders].sort()), arrows: Object.fromEntries([...arrows].sort()), loops, largest, largestFunctions },
      null,
      2,
    ),
  );
} else {
  console.log(
    `# Structure of src: ${totals.files} files, ${totals.lines} lines, ${totals.folders} folders, ${totals.arrows} folder arrows, ${loops.length} folder loops\n`,
  );
  console.log("## Folders (files, lines) and what each imports\n");
  for (const [folder, size] of [...folders].sort()) {
    const targets = [...arrows].filter(([key]) => key.startsWith(`${folder} -> `)).map(([key, count]) => `${key.slice(folder.length + 4)} (${count})`);
    console.log(`- ${folder}: ${size.files} files, ${size.lines} lines${inLoop.has(folder) ? " [in a loop]" : ""}`);
    if (targets.length > 0) console.log(`    imports ${targets.join(", ")}`);
  }
  console.log(`\n## Folder loops (${loops.length})\n`);
  for (const component of loops) console.log(`- ${component.sort().join(" <-> ")}`);
  for (const key of loopArrows.sort()) console.log(`    ${key} (${arrows.get(key)} imports)`);
  console.log("\n## Largest files\n");
  for (const { file, lines } of largest) console.log(`- ${file}: ${lines} lines`);
  console.log("\n## Largest functions\n");
  for (const { name, lines } of largestFunctions) console.log(`- ${name}: ${lines} lines`);
}

/**
 * The functions of a file with a name a reader would search for: declarations, methods, and
 * arrow or function expressions bound to a variable or property.
 * @param {string} file
 * @returns {{ name: string, lines: number }[]}
 */
function functionsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  /** @type {{ name: string, lines: number }[]} */
  const found = [];
  const lineOf = (/** @type {number} */ position) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (/** @type {ts.Node} */ node) => {
    /** @type {string | undefined} */
    let name;
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) name = node.name.getText(source);
    else if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)))
      name = node.parent.name.getText(source);
    if (name !== undefined) found.push({ name: `${file} ${name}`, lines: lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Tarjan's algorithm.
 * @param {string[]} nodes
 * @param {(node: string) => string[]} edges
 * @returns {string[][]}
 */
function stronglyConnected(nodes, edges) {
  let counter = 0;
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */
  const components = [];
  const visit = (/** @type {string} */ node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of edges(node)) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(/** @type {number} */ (low.get(node)), /** @type {number} */ (low.get(target))));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(/** @type {number} */ (low.get(node)), /** @type {number} */ (index.get(target))));
      }
    }
    if (low.get(node) === index.get(node)) {
      /** @type {string[]} */
      const component = [];
      let member;
      do {
        member = /** @type {string} */ (stack.pop());
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}
