const TEST_COMPONENTS = new Set(["test", "tests", "testing", "e2e"]);

/** SWE-bench's rule: a file belongs to the test patch if a path component is test, tests, testing or e2e. */
export function isTestPath(path: string): boolean {
  return path.split("/").some((component) => TEST_COMPONENTS.has(component));
}
