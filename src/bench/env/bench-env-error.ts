/** The environment a run needs is not there (no Docker daemon, a missing image): printed as one line, exit code 2. */
export class BenchEnvError extends Error {
  override name = "BenchEnvError";
}
