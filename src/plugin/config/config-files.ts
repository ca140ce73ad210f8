import { access, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { findNodeAtLocation, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";
import { messageOf } from "../../kit/errors/message-of.js";
import type { OptionProblem } from "./option-problem.js";
import type { ConfigLayer } from "./resolve-options.js";

/** The file name the chain looks for in each config directory. */
const CONFIG_FILE = "rcm.jsonc";

/**
 * The config files, lowest precedence first: the user's (`$XDG_CONFIG_HOME/opencode`, else
 * `~/.config/opencode`), then `$OPENCODE_CONFIG_DIR`'s, then the nearest `.opencode/` from
 * the directory up to the worktree's root.
 */
export async function configFilePaths(options: {
  directory: string;
  worktree: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}): Promise<string[]> {
  const { directory, worktree, env, home } = options;
  const paths = [join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode", CONFIG_FILE)];
  if (env.OPENCODE_CONFIG_DIR) paths.push(join(env.OPENCODE_CONFIG_DIR, CONFIG_FILE));
  const project = await nearestProjectFile(directory, worktree);
  if (project !== undefined) paths.push(project);
  return [...new Set(paths)];
}

async function nearestProjectFile(directory: string, worktree: string): Promise<string | undefined> {
  // Outside git OpenCode's worktree is "/": then only the directory itself is looked at.
  const stop = worktree === "/" || !directory.startsWith(worktree) ? directory : worktree;
  for (let dir = directory; ; dir = dirname(dir)) {
    const candidate = join(dir, ".opencode", CONFIG_FILE);
    if (await exists(candidate)) return candidate;
    if (dir === stop || dirname(dir) === dir) return undefined;
  }
}

/** Reads one JSONC file as a layer; a missing file is no layer, an unreadable one a problem. */
export async function readConfigFile(path: string): Promise<{ layer?: ConfigLayer; problem?: OptionProblem }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isMissing(error)) return {};
    return { problem: unreadable(path, messageOf(error)) };
  }
  const errors: ParseError[] = [];
  const values: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = position(text, first.offset);
    return { problem: unreadable(`${path}:${line}:${column}`, `not valid JSONC (${printParseErrorCode(first.error)})`) };
  }
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const where = (path_: readonly string[]): string => {
    const node = tree && path_.length > 0 ? findNodeAtLocation(tree, [...path_]) : undefined;
    // An unknown key's node is its value; its property starts the line a person looks at.
    const offset = node?.parent?.type === "property" ? node.parent.offset : node?.offset;
    return offset === undefined ? path : `${path}:${position(text, offset).line}`;
  };
  return { layer: { values, where, ignoredKeys: ["$schema"] } };
}

function unreadable(where: string, message: string): OptionProblem {
  return { kind: "unreadable", where, key: "(file)", value: undefined, message, instead: "the file is ignored" };
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}
