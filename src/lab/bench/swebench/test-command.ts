import { isTestPath } from "../patch/is-test-path.js";
import { patchFiles } from "../patch/patch-files.js";

/**
 * The command that runs an instance's tests, as SWE-bench's harness builds it: the
 * repository's test command, then the test files the test patch touches as directives
 * (Django's as dotted module names under tests/). `template` overrides the command, with
 * `{tests}` standing for the directives.
 */
export function swebenchTestCommand(options: { repo: string; testPatch: string; template?: string | undefined }): string {
  const { repo, testPatch, template } = options;
  const files = patchFiles(testPatch).filter((path) => isTestPath(path) && /\.(?:py|pyx)$/.test(path));
  if (repo === "django/django") {
    const modules = files.map((path) =>
      path
        .replace(/^tests\//, "")
        .replace(/\.py$/, "")
        .replaceAll("/", "."),
    );
    return fill(template ?? "./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 {tests}", modules);
  }
  if (repo === "sympy/sympy") return fill(template ?? "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose {tests}", files);
  return fill(template ?? `${PYTEST_BY_REPO[repo] ?? "pytest -rA"} {tests}`, files);
}

// Per-repository pytest flags from the harness's constants (see ../shared notes on SWE-bench).
const PYTEST_BY_REPO: Record<string, string> = {
  "astropy/astropy": "pytest -rA -vv -o console_output_style=classic --tb=no",
  "mwaskom/seaborn": "pytest --no-header -rA",
  "sphinx-doc/sphinx": "tox --current-env -epy39 -v --",
};

function fill(template: string, tests: readonly string[]): string {
  const directives = tests.map(quote).join(" ");
  return template.includes("{tests}") ? template.replaceAll("{tests}", directives).trim() : `${template} ${directives}`.trim();
}

function quote(path: string): string {
  return /^[\w./:+-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
