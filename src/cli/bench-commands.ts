// `opencode-rcm bench`: its subcommands, one file per kind (run, run directory, suite and SWE-bench interop).

import { mini, run } from "./bench-run-commands.js";
import { merge, reportCommand, score } from "./bench-run-dir-commands.js";
import { checkCommand, exportPredictionsCommand, importReportsCommand, importSwebenchCommand, makeSessionsCommand } from "./bench-suite-commands.js";
import type { Command, CommandGroup } from "./declare.js";

export { reportCommand } from "./bench-run-dir-commands.js";

/** `opencode-rcm bench ...`. */
export const benchCommands: CommandGroup = {
  name: "bench",
  description: "The Switch-SWE benchmark: check and run a suite, merge, score and report runs, import from and export to SWE-bench.",
  subCommands: {
    mini,
    run,
    merge,
    score,
    report: reportCommand,
    check: checkCommand,
    "make-sessions": makeSessionsCommand,
    "import-swebench": importSwebenchCommand,
    "export-predictions": exportPredictionsCommand,
    "import-reports": importReportsCommand,
  } satisfies Record<string, Command>,
};
