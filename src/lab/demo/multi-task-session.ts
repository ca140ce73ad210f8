import { join } from "node:path";
import { createGitRepo } from "../harness/git-repo.js";
import type { Script } from "../scripted-model/index.js";

/**
 * Three requests over two tasks, written as people write them: the second says it starts
 * something new, the third names the first task by the file it touched. The model writes,
 * edits and runs shell commands for real.
 */
export const PROMPTS = [
  "Create notes/todo.md listing the open items (fix parser, update docs).",
  "New task: count the tracked files in this repository.",
  "In notes/todo.md, mark the parser item as done.",
] as const;

export const FINAL_TODO = "- [x] fix parser\n- update docs and changelog\n";

/** Model calls the script makes: 4 for task A, 2 for task B, 2 for the return to A. */
export const EXPECTED_MODEL_CALLS = 8;

export function multiTaskScript(repo: string): Script {
  const todo = join(repo, "notes", "todo.md");
  return {
    stages: [
      {
        id: "a1",
        when: "Create notes/todo.md",
        steps: [
          { text: "Creating the list.", toolCalls: [{ name: "write", arguments: { filePath: todo, content: "- fix parser\n- update docs\n" } }] },
          { toolCalls: [{ name: "edit", arguments: { filePath: todo, oldString: "- update docs", newString: "- update docs and changelog" } }] },
          { toolCalls: [{ name: "bash", arguments: { command: "cat notes/todo.md && git status --short", description: "Show the list" } }] },
          { text: "notes/todo.md lists two open items." },
        ],
      },
      {
        id: "b1",
        when: "New task: count the tracked files",
        steps: [
          { toolCalls: [{ name: "bash", arguments: { command: "git ls-files | wc -l", description: "Count tracked files" } }] },
          { text: "There are 2 tracked files." },
        ],
      },
      {
        id: "a2",
        when: "In notes/todo.md, mark the parser",
        steps: [
          { toolCalls: [{ name: "edit", arguments: { filePath: todo, oldString: "- fix parser", newString: "- [x] fix parser" } }] },
          { text: "Marked the parser item as done." },
        ],
      },
    ],
  };
}

/** Creates (or recreates) the repository the session works in; fixed dates give a fixed commit. */
export function createTodoRepo(dir: string): Promise<string> {
  return createGitRepo(dir, { "README.md": "# todo demo\n", "src/parser.py": "def parse(text):\n    return text.split()\n" });
}
