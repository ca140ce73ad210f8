// What the CLI reads and writes instead of the process: the bin (src/cli.ts) hands main the real
// streams, the environment and Ctrl-C; a test hands it strings and a record.

/** Where text goes: process.stdout or process.stderr in the bin, a buffer in a test. */
interface Output {
  write(text: string): unknown;
  /** A terminal: help in colour, and a question when the session meant is ambiguous. */
  readonly isTTY?: boolean | undefined;
}

export interface CliIo {
  stdout: Output;
  stderr: Output;
  /** Where an answer is read; the CLI asks only when stdin and stdout are terminals. */
  stdin?: (NodeJS.ReadableStream & { readonly isTTY?: boolean | undefined }) | undefined;
  /**
   * Ctrl-C while a bench command runs: `listener` runs on the first one (the command stops
   * cleanly); the bin exits at once (130) on the second. Returns what stops listening. Without
   * it Ctrl-C is not caught.
   */
  onInterrupt?: ((listener: () => void) => () => void) | undefined;
}

/** The environment variables a command sees (process.env in the bin). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What every command runs with. */
export interface CommandContext {
  io: CliIo;
  env: Env;
}
