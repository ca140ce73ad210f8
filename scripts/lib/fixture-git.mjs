// Git for building committed fixtures: a fixed identity and dates, no system or user config,
// single-threaded packing, so the same files give the same commits and bundles everywhere.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const DATE = "2026-01-01T00:00:00Z";

/** Git helpers committing as `name` (e.g. "minitext"), with `home` as HOME. */
export function fixtureGit(name) {
  const git = (cwd, home, args) =>
    execFileSync("git", ["-c", "pack.threads=1", "-c", "core.autocrlf=false", ...args], {
      cwd,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        GIT_CONFIG_NOSYSTEM: "1",
        LC_ALL: "C",
        GIT_AUTHOR_NAME: name,
        GIT_AUTHOR_EMAIL: `${name}@example.invalid`,
        GIT_COMMITTER_NAME: name,
        GIT_COMMITTER_EMAIL: `${name}@example.invalid`,
        GIT_AUTHOR_DATE: DATE,
        GIT_COMMITTER_DATE: DATE,
      },
    });
  const writeRepoFile = (repo, path, content) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  };
  /** The git diff that turns the base version of `path` into `content`; the repo is reset after. */
  const diffOf = ({ repo, home, path, content }) => {
    writeRepoFile(repo, path, content);
    git(repo, home, ["add", "--", path]);
    const diff = git(repo, home, ["diff", "--cached", "--no-color", "--no-ext-diff", "--", path]);
    git(repo, home, ["reset", "-q", "--hard", "HEAD"]);
    git(repo, home, ["clean", "-fdq"]);
    return diff;
  };
  return { git, writeRepoFile, diffOf };
}
