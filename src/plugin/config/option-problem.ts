/** Something wrong in one config layer, named the way the user would find it. */
export interface OptionProblem {
  kind: "invalid" | "unknown" | "unreadable";
  /** Where: `file:line`, an environment variable, or the opencode.json plug-in options. */
  where: string;
  /** Dotted option key; "(options)" for the layer as a whole. */
  key: string;
  value: unknown;
  message: string;
  /** The closest known key, for an unknown one. */
  suggestion?: string;
  /** What is used instead, e.g. `the default "full"`. */
  instead: string;
}

/** One line for the log and the start-up toast. */
export function describeProblem(problem: OptionProblem): string {
  const { where, key } = problem;
  switch (problem.kind) {
    case "unknown":
      return `${where}: unknown option ${key}${problem.suggestion ? ` (did you mean ${problem.suggestion}?)` : ""}; ignored`;
    case "unreadable":
      return `${where}: ${problem.message}; ${problem.instead}`;
    case "invalid":
      return `${where}: invalid ${key} = ${JSON.stringify(problem.value) ?? "undefined"}: ${problem.message}; using ${problem.instead}`;
  }
}
