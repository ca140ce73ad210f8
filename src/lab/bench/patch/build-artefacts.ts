/**
 * What running code and tests leaves behind in a checkout, never what an agent wrote: bytecode,
 * tool caches, installed packages. A new file matching one stays out of the focus patch whatever
 * the repository's .gitignore says (a repository without one would otherwise send binary
 * `.pyc` diffs to the scorer and to exported predictions). Tracked files are never left out.
 */
const BUILD_ARTEFACTS = [
  "__pycache__/",
  "*.pyc",
  "*.pyo",
  ".pytest_cache/",
  ".mypy_cache/",
  ".ruff_cache/",
  ".hypothesis/",
  ".tox/",
  ".nox/",
  "*.egg-info/",
  ".coverage",
  "node_modules/",
  ".DS_Store",
] as const;

/** The artefacts as git pathspecs that leave them out, at any depth. */
export function artefactExclusions(): string[] {
  return BUILD_ARTEFACTS.map((pattern) => (pattern.endsWith("/") ? `:(exclude,glob)**/${pattern}**` : `:(exclude,glob)**/${pattern}`));
}
