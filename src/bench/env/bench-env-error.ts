import { CliError } from "../../cli-error.js";

/** The environment a run needs is not there (no Docker daemon, a missing image): printed as one line, exit code 2. */
export class BenchEnvError extends CliError {
  override name = "BenchEnvError";
  constructor(message: string) {
    super(message, { code: "bench-env" });
  }
}
