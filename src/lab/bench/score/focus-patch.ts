import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { artefactExclusions } from "../patch/build-artefacts.js";
import { isTestPath } from "../patch/is-test-path.js";
import { runGit } from "./run-git.js";

// Fixed diff options, whatever the user's git configuration says (prefixes, colours, renames).
const DIFF_OPTIONS = ["--no-color", "--no-ext-diff", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/"];

/**
 * The non-test changes of `checkout` relative to `baseCommit`, as a git diff: modified,
 * deleted and new (untracked, not ignored, not a build artefact) files whose path has no
 * test component. The
 * checkout's own index is left alone (a temporary index is used). Empty when nothing changed.
 * `tempDir` holds the temporary index (and is git's TMPDIR); the system's temp dir by default.
 */
export async function focusPatch(checkout: string, baseCommit: string, options: { tempDir?: string | undefined } = {}): Promise<string> {
  const indexDir = await mkdtemp(join(options.tempDir ?? tmpdir(), "rcm-focus-index-"));
  try {
    const env = { ...(options.tempDir === undefined ? {} : { TMPDIR: options.tempDir }), GIT_INDEX_FILE: join(indexDir, "index") };
    await runGit({ cwd: checkout, args: ["read-tree", baseCommit], env });
    // Tracked files as they are, then new files but build artefacts (patch/build-artefacts.ts).
    await runGit({ cwd: checkout, args: ["add", "-u", "--", "."], env });
    await runGit({ cwd: checkout, args: ["add", "-A", "--", ".", ...artefactExclusions()], env });
    const names = await runGit({ cwd: checkout, args: ["diff", "--cached", "--name-only", "-z", "--no-renames", baseCommit], env });
    const paths = names.stdout.split("\0").filter((path) => path !== "" && !isTestPath(path));
    if (paths.length === 0) return "";
    const diff = await runGit({
      cwd: checkout,
      args: ["diff", "--cached", "--binary", ...DIFF_OPTIONS, baseCommit, "--", ...paths],
      env: { ...env, GIT_LITERAL_PATHSPECS: "1" },
    });
    return diff.stdout;
  } finally {
    await rm(indexDir, { recursive: true, force: true });
  }
}
