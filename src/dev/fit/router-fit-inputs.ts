import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";
import { z } from "zod";
import { messageOf } from "../../kit/errors/message-of.js";
import { FITTING_SPLITS, fittingSplitPath } from "./fitting-sessions.js";

/**
 * What the committed router parameters are a function of, by content: every source file the fit
 * reaches through its imports (by its code, not its comments) (features, signals, options, the fit itself, and the parameters it
 * wrote), the packages those files import, the fitting splits held in the repository, and the
 * materialised ones outside it. `npm run fit-router` records them beside the parameters
 * (`router-parameters.inputs.json`); a unit test compares them with the tree in milliseconds, so a
 * change to any input without a refit fails at once, even where the materialised sets are absent
 * and the refit itself (test/slow) cannot run.
 */
const RouterFitInputsSchema = z
  .object({
    /** Repository-relative path to the sha256 of its text, for the source files and the in-repository splits. */
    files: z.record(z.string(), z.string()),
    /** Package name to the installed version, for the packages the source files import. */
    packages: z.record(z.string(), z.string()),
    /** Fitting split to the sha256 of its materialised sessions file; empty where none is materialised. */
    materialised: z.record(z.string(), z.string()),
  })
  .strict();
export type RouterFitInputs = z.infer<typeof RouterFitInputsSchema>;

/** Where the fit starts: the modules `scripts/fit-router.mjs` calls, and the script itself. */
const FIT_ENTRIES = [
  "scripts/fit-router.mjs",
  "src/dev/fit/fit-router-parameters.ts",
  "src/dev/fit/fitting-sessions.ts",
  "src/dev/fit/render-router-parameters.ts",
];

/** The recorded inputs' file, beside the parameters. */
export function routerFitInputsFile(root: string): string {
  return join(root, "src", "plugin", "core", "routing", "router-parameters.inputs.json");
}

/** sha256 of a text file, line endings as LF, so a checkout with CRLF hashes the same. */
function textHash(file: string): string {
  return createHash("sha256").update(readFileSync(file, "utf8").replaceAll("\r\n", "\n")).digest("hex");
}

/**
 * sha256 of a source file's code as it runs: types and comments stripped, so a comment, a
 * doc line or a type annotation asks for no refit (each costs two minutes and the materialised
 * sets), while any change to what the code does still does.
 */
function codeHash(file: string): string {
  const text = readFileSync(file, "utf8").replaceAll("\r\n", "\n");
  const code = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: { removeComments: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  return createHash("sha256").update(code).digest("hex");
}

const repoPath = (root: string, file: string): string => relative(root, file).split(sep).join("/");

/** `zod/v4` -> `zod`, `@scope/name/sub` -> `@scope/name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * The source files reachable from the entries through relative imports (type-only ones too), and
 * the packages they import. Imports are read with a pattern, not a parser: a specifier in a string
 * or comment that names no file is skipped (the type check catches a real import that resolves to
 * nothing), and one that does name a file only widens the inputs. A script's `../dist/x.js` is its
 * source, `src/x.ts`.
 */
function sourceClosure(root: string, entries: readonly string[]): { files: string[]; packages: string[] } {
  const pending = entries.map((entry) => join(root, entry));
  const files = new Set<string>();
  const packages = new Set<string>();
  const dist = join(root, "dist") + sep;
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
      const specifier = match[1] ?? "";
      if (specifier.startsWith("node:")) continue;
      if (!specifier.startsWith(".")) {
        packages.add(packageName(specifier));
        continue;
      }
      let target = join(dirname(file), specifier);
      if (target.startsWith(dist)) target = join(root, "src", target.slice(dist.length));
      target = target.replace(/\.js$/, ".ts");
      if (existsSync(target)) pending.push(target);
    }
  }
  return { files: [...files].map((file) => repoPath(root, file)), packages: [...packages] };
}

/** The data files of a split in the repository: its `*.jsonl` files, what the fit reads (or the references it is materialised from). */
function splitDataFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? splitDataFiles(join(path, entry.name)) : entry.name.endsWith(".jsonl") ? [join(path, entry.name)] : [],
  );
}

const sortedRecord = (entries: Iterable<[string, string]>): Record<string, string> =>
  Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * The fit's inputs as the tree has them now. A split kept as references only counts by its
 * references file in the repository, and by its materialised sessions file when `dataDir` has it.
 */
export function routerFitInputs(root: string, dataDir?: string): RouterFitInputs {
  const closure = sourceClosure(root, FIT_ENTRIES);
  const files = new Map(closure.files.map((file) => [file, codeHash(join(root, file))] as [string, string]));
  const materialised = new Map<string, string>();
  for (const split of FITTING_SPLITS) {
    const inRepository = join(root, ...split.split("/"));
    for (const file of splitDataFiles(inRepository)) files.set(repoPath(root, file), textHash(file));
    const read = dataDir === undefined ? fittingSplitPath(root, split) : fittingSplitPath(root, split, dataDir);
    if (!read.startsWith(inRepository) && existsSync(read)) materialised.set(split, textHash(read));
  }
  const packages = closure.packages.map((name): [string, string] => {
    const manifest = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version?: unknown };
    return [name, String(manifest.version)];
  });
  return { files: sortedRecord(files), packages: sortedRecord(packages), materialised: sortedRecord(materialised) };
}

/** The inputs `npm run fit-router` recorded last; a file that is not what it writes is an error naming it. */
export function readRouterFitInputs(root: string): RouterFitInputs {
  const file = routerFitInputsFile(root);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: ${messageOf(error)} (npm run fit-router writes it)`);
  }
  const parsed = RouterFitInputsSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${file}: not the inputs npm run fit-router records: ${parsed.error.message}`);
  return parsed.data;
}

/** The recorded inputs as their file holds them: stable bytes for the same inputs. */
export function renderRouterFitInputs(inputs: RouterFitInputs): string {
  return `${JSON.stringify(inputs, null, 2)}\n`;
}

/**
 * How the tree's inputs differ from the recorded ones, one line each (empty: the committed
 * parameters are the fit of this tree). A materialised split absent here is not compared.
 */
export function changedRouterFitInputs(recorded: RouterFitInputs, current: RouterFitInputs): string[] {
  const changes: string[] = [];
  const compare = (kind: string, before: Record<string, string>, after: Record<string, string>, onlyPresent = false): void => {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const was = before[key];
      const is = after[key];
      if (was === is || (onlyPresent && is === undefined)) continue;
      const change = was === undefined ? "new" : is === undefined ? "gone" : kind === "package" ? `${was} -> ${is}` : "changed";
      changes.push(`${kind} ${key}: ${change}`);
    }
  };
  compare("file", recorded.files, current.files);
  compare("package", recorded.packages, current.packages);
  compare("materialised", recorded.materialised, current.materialised, true);
  return changes.sort();
}
